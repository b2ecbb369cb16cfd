package dev.berth.support;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real websocket client for {@code /v1/client/allocation/{id}/exec} (the JDK's {@link WebSocket}), speaking Nomad's
 * exec frames: collects every output frame, the exit code and the close status.
 */
public final class ExecClient implements WebSocket.Listener, AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<JsonNode> frames = new CopyOnWriteArrayList<>();
    private final StringBuilder partial = new StringBuilder();
    private final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
    /** Completes with "code reason" when the server closes. */
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private WebSocket socket;

    private ExecClient() {
    }

    /** Opens a session; {@code headers} are extra handshake headers (e.g. {@code X-Nomad-Token}). */
    public static ExecClient open(int port, String allocId, String task, List<String> command, boolean tty,
            Map<String, String> headers, String extraQuery) throws Exception {
        String query = "task=" + enc(task) + "&tty=" + tty + "&command=" + enc(JSON.writeValueAsString(command))
                + (extraQuery == null ? "" : "&" + extraQuery);
        ExecClient client = new ExecClient();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        headers.forEach(builder::header);
        client.socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/client/allocation/" + allocId + "/exec?" + query),
                client).get(20, TimeUnit.SECONDS);
        return client;
    }

    public static ExecClient open(int port, String allocId, String task, List<String> command, boolean tty) throws Exception {
        return open(port, allocId, task, command, tty, Map.of(), null);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    public void sendRaw(String frame) throws Exception {
        socket.sendText(frame, true).get(10, TimeUnit.SECONDS);
    }

    public void stdin(String text) throws Exception {
        sendRaw("{\"stdin\":{\"data\":\"" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "\"}}");
    }

    public void closeStdin() throws Exception {
        sendRaw("{\"stdin\":{\"close\":true}}");
    }

    public void ttySize(int height, int width) throws Exception {
        sendRaw("{\"tty_size\":{\"height\":" + height + ",\"width\":" + width + "}}");
    }

    /** Everything received so far on {@code stream} ("stdout" / "stderr"), decoded. */
    public String output(String stream) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (JsonNode frame : frames) {
            String data = frame.path(stream).path("data").asString("");
            if (!data.isEmpty()) {
                out.writeBytes(Base64.getDecoder().decode(data));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    public List<JsonNode> frames() {
        return new ArrayList<>(frames);
    }

    public int exitCode(Duration timeout) throws Exception {
        return exitCode.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public CompletableFuture<Integer> exit() {
        return exitCode;
    }

    /** "code reason" of the server's close frame. */
    public String closeStatus(Duration timeout) throws Exception {
        return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            JsonNode frame = JSON.readTree(partial.toString());
            partial.setLength(0);
            frames.add(frame);
            if (frame.path("exited").asBoolean(false)) {
                exitCode.complete(frame.path("result").path("exit_code").asInt());
            }
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode + " " + reason);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
        exitCode.completeExceptionally(error);
    }

    /** Closes from the client side (a user hanging up). */
    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        socket.abort();
    }
}
