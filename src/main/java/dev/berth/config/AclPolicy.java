package dev.berth.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.berth.config.BerthProperties.Acl;
import dev.berth.config.BerthProperties.TokenScope;

/**
 * Who may do what. Built once from {@code berth.acl.*} and the bind address; refuses insecure combinations at
 * construction so the agent never starts with them.
 *
 * <p>Secrets are compared in constant time: each presented secret and each configured secret is reduced to its
 * SHA-256 digest and every configured token is compared with {@link MessageDigest#isEqual}, without stopping at
 * the first match, so neither the length nor the position of a secret leaks through timing.
 */
public final class AclPolicy {

    /** Nomad's error text for an unknown secret. */
    public static final String TOKEN_NOT_FOUND = "ACL token not found";
    /** Nomad's error text for a missing token or a token without the needed capability. */
    public static final String PERMISSION_DENIED = "Permission denied";

    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final boolean enabled;
    private final boolean anonymousMetrics;
    private final List<HashedToken> tokens;

    private AclPolicy(boolean enabled, boolean anonymousMetrics, List<HashedToken> tokens) {
        this.enabled = enabled;
        this.anonymousMetrics = anonymousMetrics;
        this.tokens = tokens;
    }

    /**
     * Builds the policy, failing when it would be insecure or unusable.
     *
     * @param acl           the {@code berth.acl} settings
     * @param serverAddress the value of {@code server.address}; {@code null}/empty means all interfaces
     * @throws InsecureConfigurationException when ACLs are off on a non-loopback address, or on without tokens
     */
    public static AclPolicy of(Acl acl, String serverAddress) {
        Objects.requireNonNull(acl, "'acl' must not be null");
        if (!acl.enabled() && !isLoopback(serverAddress)) {
            String shown = (serverAddress == null || serverAddress.isBlank()) ? "<unset: all interfaces>" : serverAddress;
            throw new InsecureConfigurationException(
                    "Berth refuses to listen on server.address=" + shown + " with ACLs disabled (berth.acl.enabled=false): "
                            + "anyone who can reach this address could run processes on this host.",
                    "Either bind to a loopback address (server.address=127.0.0.1) or enable ACLs: set "
                            + "berth.acl.enabled=true and configure at least one token under berth.acl.tokens "
                            + "(for example BERTH_ACL_TOKENS_0_SECRET and BERTH_ACL_TOKENS_0_SCOPE=write).");
        }
        if (acl.enabled() && acl.tokens().isEmpty()) {
            throw new InsecureConfigurationException(
                    "ACLs are enabled (berth.acl.enabled=true) but no token is configured under berth.acl.tokens, "
                            + "so every request would be refused.",
                    "Configure at least one token: berth.acl.tokens[0].secret=<random secret> and "
                            + "berth.acl.tokens[0].scope=write (environment: BERTH_ACL_TOKENS_0_SECRET, "
                            + "BERTH_ACL_TOKENS_0_SCOPE), or disable ACLs while bound to 127.0.0.1.");
        }
        List<HashedToken> hashed = acl.tokens().stream()
                .map(t -> new HashedToken(t.name(), sha256(t.secret()), t.scope()))
                .toList();
        return new AclPolicy(acl.enabled(), acl.anonymousMetrics(), hashed);
    }

    /** Whether requests are checked at all. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether metrics and health endpoints are readable without a token. */
    public boolean anonymousMetrics() {
        return anonymousMetrics;
    }

    /**
     * Decides whether a request presenting {@code secret} may act with {@code required} scope.
     *
     * @param secret   the presented secret, {@code null} or empty when the request carried none
     * @param required the scope the request needs; {@code WRITE} implies {@code READ}
     */
    public AclDecision authorize(String secret, TokenScope required) {
        Objects.requireNonNull(required, "'required' must not be null");
        if (!enabled) {
            return new AclDecision.Allowed("anonymous");
        }
        if (secret == null || secret.isEmpty()) {
            return new AclDecision.Denied(PERMISSION_DENIED);
        }
        byte[] presented = sha256(secret);
        HashedToken match = null;
        for (HashedToken token : tokens) {
            // No early exit: every token is compared so timing does not reveal which one matched.
            if (MessageDigest.isEqual(presented, token.digest()) && match == null) {
                match = token;
            }
        }
        if (match == null) {
            return new AclDecision.Denied(TOKEN_NOT_FOUND);
        }
        if (required == TokenScope.WRITE && match.scope() != TokenScope.WRITE) {
            return new AclDecision.Denied(PERMISSION_DENIED);
        }
        return new AclDecision.Allowed(match.name());
    }

    /**
     * Whether {@code address} (the {@code server.address} value) only accepts local connections. Unset, the
     * wildcard addresses and anything that does not resolve to a loopback address are not loopback.
     */
    static boolean isLoopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        String value = address.trim();
        if (value.startsWith("[") && value.endsWith("]")) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.toLowerCase(Locale.ROOT).equals("localhost")) {
            return true;
        }
        if (!IPV4_LITERAL.matcher(value).matches() && !value.contains(":")) {
            // A host name: resolve it the way the web server will (only when an operator configured one).
            try {
                InetAddress[] all = InetAddress.getAllByName(value);
                for (InetAddress each : all) {
                    if (!each.isLoopbackAddress()) {
                        return false;
                    }
                }
                return all.length > 0;
            } catch (UnknownHostException ex) {
                return false;
            }
        }
        try {
            // A literal: getByName parses it without any lookup.
            return InetAddress.getByName(value).isLoopbackAddress();
        } catch (UnknownHostException ex) {
            return false;
        }
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
        }
    }

    private record HashedToken(String name, byte[] digest, TokenScope scope) {
    }
}
