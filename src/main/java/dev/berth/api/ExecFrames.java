package dev.berth.api;

import java.util.Base64;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Nomad's exec streaming frames ({@code ExecStreamingInput} / {@code ExecStreamingOutput} in its {@code api} package),
 * one JSON object per websocket text message. Bytes travel base64-encoded, as Go encodes {@code []byte}.
 */
final class ExecFrames {

    private ExecFrames() {
    }

    /** What a client sent: one of stdin data, stdin close, a terminal size, a handshake, or nothing (a heartbeat). */
    sealed interface Input {
    }

    record Stdin(byte[] data) implements Input {
    }

    record StdinClose() implements Input {
    }

    record TtySize(int rows, int columns) implements Input {
    }

    /** {@code ?ws_handshake=true}: the first frame carries the token ({@code {"version":1,"auth_token":"…"}}). */
    record Handshake(int version, String authToken) implements Input {
    }

    record Heartbeat() implements Input {
    }

    /** @throws IllegalArgumentException for text that is not a JSON object or base64 that does not decode */
    static Input parse(JsonMapper json, String text) {
        JsonNode node;
        try {
            node = json.readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("invalid exec frame: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("invalid exec frame: not a JSON object");
        }
        JsonNode stdin = node.path("stdin");
        if (stdin.isObject()) {
            String data = stdin.path("data").asString("");
            if (!data.isEmpty()) {
                return new Stdin(Base64.getDecoder().decode(data));
            }
            return stdin.path("close").asBoolean(false) ? new StdinClose() : new Heartbeat();
        }
        JsonNode size = node.path("tty_size");
        if (size.isObject()) {
            return new TtySize(size.path("height").asInt(0), size.path("width").asInt(0));
        }
        if (node.has("version") || node.has("auth_token")) {
            return new Handshake(node.path("version").asInt(0), node.path("auth_token").asString(""));
        }
        return new Heartbeat();
    }

    static String stdout(byte[] data, int length) {
        return "{\"stdout\":{\"data\":\"" + Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(data, length)) + "\"}}";
    }

    static String stderr(byte[] data, int length) {
        return "{\"stderr\":{\"data\":\"" + Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(data, length)) + "\"}}";
    }

    static String closed(String stream) {
        return "{\"" + stream + "\":{\"close\":true}}";
    }

    static String exited(int exitCode) {
        return "{\"exited\":true,\"result\":{\"exit_code\":" + exitCode + "}}";
    }
}
