package dev.berth.config;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.berth.config.BerthProperties.Acl;
import dev.berth.config.BerthProperties.Token;
import dev.berth.config.BerthProperties.TokenScope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AclPolicyTest {

    private static final List<Token> TOKENS = List.of(
            new Token("ci", "read-secret", TokenScope.READ),
            new Token("ops", "write-secret", TokenScope.WRITE));

    private final AclPolicy policy = AclPolicy.of(new Acl(true, TOKENS, true), "0.0.0.0");

    @Test
    void writeTokenMayReadAndWrite() {
        assertThat(policy.authorize("write-secret", TokenScope.WRITE)).isEqualTo(new AclDecision.Allowed("ops"));
        assertThat(policy.authorize("write-secret", TokenScope.READ)).isEqualTo(new AclDecision.Allowed("ops"));
    }

    @Test
    void readTokenMayOnlyRead() {
        assertThat(policy.authorize("read-secret", TokenScope.READ)).isEqualTo(new AclDecision.Allowed("ci"));
        assertThat(policy.authorize("read-secret", TokenScope.WRITE))
                .isEqualTo(new AclDecision.Denied(AclPolicy.PERMISSION_DENIED));
    }

    @Test
    void missingTokenIsPermissionDeniedAndUnknownTokenIsNotFound() {
        assertThat(policy.authorize(null, TokenScope.READ)).isEqualTo(new AclDecision.Denied("Permission denied"));
        assertThat(policy.authorize("", TokenScope.READ)).isEqualTo(new AclDecision.Denied("Permission denied"));
        assertThat(policy.authorize("write-secreT", TokenScope.READ)).isEqualTo(new AclDecision.Denied("ACL token not found"));
        assertThat(policy.authorize("write-secret-and-more", TokenScope.READ))
                .isEqualTo(new AclDecision.Denied("ACL token not found"));
    }

    @Test
    void disabledAclsAllowEverythingOnLoopback() {
        AclPolicy open = AclPolicy.of(new Acl(false, List.of(), true), "127.0.0.1");

        assertThat(open.enabled()).isFalse();
        assertThat(open.authorize(null, TokenScope.WRITE)).isInstanceOf(AclDecision.Allowed.class);
    }

    @Test
    void disabledAclsOnAWildcardAddressAreRefused() {
        assertThatExceptionOfType(InsecureConfigurationException.class)
                .isThrownBy(() -> AclPolicy.of(new Acl(false, List.of(), true), null))
                .withMessageContaining("<unset: all interfaces>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", " 127.0.0.1 "})
    void loopbackAddresses(String address) {
        assertThat(AclPolicy.isLoopback(address)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.1", "fe80::1", "", " "})
    void nonLoopbackAddresses(String address) {
        assertThat(AclPolicy.isLoopback(address)).isFalse();
    }
}
