package dev.berth.api;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExec;
import dev.berth.alloc.AllocExec.ExecRefusedException;
import dev.berth.config.AclDecision;
import dev.berth.config.AclPolicy;
import dev.berth.config.BerthProperties.TokenScope;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;

/**
 * {@code GET /v1/client/allocation/{id}/exec?task=…&command=[…]&tty=…} upgraded to a websocket, speaking Nomad's exec
 * protocol (see {@link ExecFrames}). As in Nomad, every refusal comes after the upgrade, as a close frame with Nomad's text:
 * code 1008 (policy violation) for what Nomad answers 4xx ({@code unknown task name "x"}, {@code task "x" is not
 * running.}, {@code Unknown allocation "…"}, {@code ACL token not found}), 1011 (internal error) for what it answers 500
 * or with no code ({@code Permission denied}, exec disabled, driver errors).
 *
 * <p>Needs a write-scope token when ACLs are on (Nomad: {@code alloc-exec}): from {@code X-Nomad-Token},
 * {@code Authorization: Bearer}, or with {@code ?ws_handshake=true} the first frame {@code {"version":1,"auth_token":"…"}}
 * (how Nomad's web UI authenticates, browsers cannot set headers on a websocket). The {@link AclFilter} leaves this path
 * to this handler, which checks before it looks anything up.
 */
@Component
class ExecSocketHandler extends TextWebSocketHandler {

    static final CloseStatus POLICY = CloseStatus.POLICY_VIOLATION;
    static final CloseStatus INTERNAL = CloseStatus.SERVER_ERROR;

    private static final Logger log = LoggerFactory.getLogger(ExecSocketHandler.class);
    private static final String STREAM = "berth.exec.stream";
    private static final String AWAITING_HANDSHAKE = "berth.exec.handshake";

    private final AllocExec allocs;
    private final AclPolicy acl;
    private final ExecProperties properties;
    private final JsonMapper json;

    ExecSocketHandler(AllocExec allocs, AclPolicy acl, ExecProperties properties, JsonMapper json) {
        this.allocs = allocs;
        this.acl = acl;
        this.properties = properties;
        this.json = json;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) throws IOException {
        Map<String, String> query = query(session.getUri());
        String handshake = query.getOrDefault("ws_handshake", "");
        if (!handshake.isEmpty() && !"false".equalsIgnoreCase(handshake)) {
            if (!"true".equalsIgnoreCase(handshake)) {
                close(session, POLICY, "ws_handshake value is not a boolean: " + handshake);
                return;
            }
            session.getAttributes().put(AWAITING_HANDSHAKE, Boolean.TRUE);
            return;
        }
        start(session, headerToken(session.getHandshakeHeaders()));
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws IOException {
        ExecFrames.Input input;
        try {
            input = ExecFrames.parse(json, message.getPayload());
        } catch (IllegalArgumentException e) {
            close(session, INTERNAL, e.getMessage());
            return;
        }
        if (session.getAttributes().remove(AWAITING_HANDSHAKE) != null) {
            if (!(input instanceof ExecFrames.Handshake(int version, String token))) {
                close(session, POLICY, "unexpected handshake value: 0");
                return;
            }
            String header = headerToken(session.getHandshakeHeaders());
            if (header != null && !header.equals(token)) {
                close(session, POLICY, "handshake auth token mismatched auth header token");
            } else if (version != 1) {
                close(session, POLICY, "unexpected handshake value: " + version);
            } else {
                start(session, token);
            }
            return;
        }
        if (session.getAttributes().get(STREAM) instanceof ExecStream stream) {
            stream.input(input);
        }
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        if (session.getAttributes().remove(STREAM) instanceof ExecStream stream) {
            stream.stop();
        }
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) {
        log.debug("exec websocket {} failed: {}", session.getId(), exception.toString());
        afterConnectionClosed(session, CloseStatus.SERVER_ERROR);
    }

    /** Checks, looks up and starts the command; every refusal closes the socket with Nomad's text. */
    private void start(WebSocketSession session, String token) throws IOException {
        if (!properties.enabled()) {
            close(session, INTERNAL, AclPolicy.PERMISSION_DENIED);
            return;
        }
        if (acl.authorize(token, TokenScope.WRITE) instanceof AclDecision.Denied(String reason)) {
            log.info("ACL refused exec {}: {}", session.getUri() == null ? "" : session.getUri().getPath(), reason);
            close(session, AclPolicy.TOKEN_NOT_FOUND.equals(reason) ? POLICY : INTERNAL, reason);
            return;
        }
        Map<String, String> query = query(session.getUri());
        String allocId = allocId(session.getUri());
        String task = query.getOrDefault("task", "");
        boolean tty;
        List<String> command;
        try {
            tty = parseTty(query.getOrDefault("tty", ""));
            command = parseCommand(query.getOrDefault("command", ""));
        } catch (IllegalArgumentException e) {
            close(session, INTERNAL, e.getMessage());
            return;
        }
        if (command.isEmpty() && !task.isEmpty()) {
            close(session, POLICY, "command is not present");
            return;
        }
        ExecSession exec;
        try {
            exec = allocs.exec(allocId, task, new ExecSession.Request(command.isEmpty() ? List.of("") : command, tty, 0, 0));
        } catch (UnknownAllocException | ExecRefusedException e) {
            close(session, POLICY, e.getMessage());
            return;
        } catch (DriverException e) {
            close(session, INTERNAL, e.getMessage());
            return;
        }
        log.info("exec session starting: alloc={} task={} command={} tty={}", allocId, task, command, tty);
        ExecStream stream = new ExecStream(session, exec);
        session.getAttributes().put(STREAM, stream);
        if (!session.isOpen()) {
            // closed while the command started: afterConnectionClosed found no stream to stop
            stream.stop();
            return;
        }
        stream.start();
    }

    static boolean parseTty(String value) {
        if (value.isEmpty()) {
            return false;
        }
        return switch (value) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> throw new IllegalArgumentException("tty value is not a boolean: strconv.ParseBool: parsing \""
                    + value + "\": invalid syntax");
        };
    }

    private List<String> parseCommand(String value) {
        try {
            List<String> command = json.readValue(value, new TypeReference<List<String>>() { });
            return command == null ? List.of() : command;
        } catch (JacksonException e) {
            throw new IllegalArgumentException("failed to marshal command into json: " + e.getOriginalMessage());
        }
    }

    /** The alloc ID from {@code /v1/client/allocation/{id}/exec}. */
    static String allocId(URI uri) {
        String path = uri == null ? "" : uri.getPath();
        String prefix = "/v1/client/allocation/";
        int start = path.indexOf(prefix);
        int end = path.lastIndexOf("/exec");
        return start < 0 || end <= start + prefix.length() ? "" : path.substring(start + prefix.length(), end);
    }

    static Map<String, String> query(URI uri) {
        Map<String, String> params = new LinkedHashMap<>();
        String raw = uri == null ? null : uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.putIfAbsent(key, value);
        }
        return params;
    }

    /** {@code X-Nomad-Token}, else {@code Authorization: Bearer …} (as the {@link AclFilter} reads them); null when none. */
    static String headerToken(HttpHeaders headers) {
        String token = headers.getFirst(AclFilter.TOKEN_HEADER);
        if (token != null && !token.isBlank()) {
            return token.strip();
        }
        String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String bearer = authorization.substring(7).strip();
            return bearer.isEmpty() ? null : bearer;
        }
        return null;
    }

    static void close(WebSocketSession session, CloseStatus status, String reason) throws IOException {
        // a close reason is limited to 123 bytes by the protocol
        String text = reason.getBytes(StandardCharsets.UTF_8).length > 123 ? reason.substring(0, 100) + "…" : reason;
        if (session.isOpen()) {
            session.close(status.withReason(text));
        }
    }
}
