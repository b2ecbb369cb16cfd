package dev.berth.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code berth.api.max-request-body-size} over real HTTP on the shared agent (default 10MB). The oversized requests are
 * written to a raw socket: that is the only way to declare a length and then not send the body, or to send a chunked
 * body and stop exactly one byte past the limit.
 */
@AgentIntegrationTest
class RequestBodyLimitTest {

    @LocalServerPort
    int port;

    @Autowired
    ApiProperties properties;

    long limit() {
        return properties.maxRequestBodySize().toBytes();
    }

    /** A valid allocation padded to exactly {@code size} bytes with a field Berth ignores. */
    static byte[] paddedAlloc(String id, long size) {
        String head = """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":1,"TaskGroup":"app",
                 "Job":{"ID":"web","Name":"web","Type":"batch","TaskGroups":[{"Name":"app",
                   "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"1s"},"Resources":{"CPU":100,"MemoryMB":32}}]}]},
                 "Padding":\"""".formatted(id);
        String tail = "\"}";
        int pad = Math.toIntExact(size - head.length() - tail.length());
        return (head + "x".repeat(pad) + tail).getBytes(StandardCharsets.US_ASCII);
    }

    static String head(String method, String path, String framing) {
        return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + framing + "\r\n";
    }

    /**
     * One response: its head, then as many body bytes as it declares. Not read to EOF: after a 413 Tomcat may keep the
     * connection open for a while to drain what the client still sends.
     */
    static String readResponse(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        InputStream in = socket.getInputStream();
        String headers = line(in, "\r\n\r\n");
        Matcher length = Pattern.compile("(?im)^Content-Length:\\s*(\\d+)").matcher(headers);
        if (length.find()) {
            return headers + new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.UTF_8);
        }
        assertThat(headers).containsIgnoringCase("Transfer-Encoding: chunked");
        StringBuilder body = new StringBuilder();
        for (int size = Integer.parseInt(line(in, "\r\n").strip(), 16); size > 0; size = Integer.parseInt(line(in, "\r\n").strip(), 16)) {
            body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
            line(in, "\r\n");
        }
        return headers + body;
    }

    /** Bytes up to and including {@code end}. */
    private static String line(InputStream in, String end) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.US_ASCII).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void aDeclaredLengthOverTheLimitIs413BeforeTheBodyIsSent() throws Exception {
        String id = UUID.randomUUID().toString();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            // headers only: the body is never sent, so any answer proves the agent did not wait for it
            out.write(head("PUT", "/v1/client/allocation/" + id, "Content-Length: " + (limit() + 1) + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = readResponse(socket);
            assertThat(response).startsWith("HTTP/1.1 413").containsIgnoringCase("Content-Type: application/problem+json")
                    .containsIgnoringCase("Connection: close")
                    .contains("\"status\":413").contains("\"limit\":" + limit())
                    .contains("Request body too large: the limit is " + limit() + " bytes (berth.api.max-request-body-size)");
        }
        assertThat(Http.get(port, "/v1/allocation/" + id).statusCode()).as("nothing stored").isEqualTo(404);
    }

    @Test
    void aChunkedBodyThatGrowsOverTheLimitIs413() throws Exception {
        String id = UUID.randomUUID().toString();
        byte[] body = paddedAlloc(id, limit() + 1);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head("PUT", "/v1/client/allocation/" + id, "Transfer-Encoding: chunked\r\n").getBytes(StandardCharsets.US_ASCII));
            int chunk = 64 * 1024;
            for (int offset = 0; offset < body.length; offset += chunk) {
                int n = Math.min(chunk, body.length - offset);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, offset, n);
                if (offset + n < body.length) {
                    // the last chunk's CRLF and the terminating chunk are never sent: the agent must answer without them
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
            }
            out.flush();
            String response = readResponse(socket);
            assertThat(response).startsWith("HTTP/1.1 413").containsIgnoringCase("Content-Type: application/problem+json")
                    .contains("\"status\":413").contains("berth.api.max-request-body-size");
        }
        assertThat(Http.get(port, "/v1/allocation/" + id).statusCode()).as("nothing stored").isEqualTo(404);
    }

    @Test
    void aBodyOfExactlyTheLimitIsAccepted() throws Exception {
        String id = UUID.randomUUID().toString();
        byte[] body = paddedAlloc(id, limit());
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, new String(body, StandardCharsets.US_ASCII));
        try {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            // the allocation comes back whole: an unknown field survives the round trip as a newer Nomad's would
            assertThat(r.body()).contains("\"Padding\"");
        } finally {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    @Test
    void aChunkedBodyOfExactlyTheLimitIsAccepted() throws Exception {
        String id = UUID.randomUUID().toString();
        byte[] body = paddedAlloc(id, limit());
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head("PUT", "/v1/client/allocation/" + id, "Transfer-Encoding: chunked\r\nConnection: close\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            int chunk = 100_000;
            for (int offset = 0; offset < body.length; offset += chunk) {
                int n = Math.min(chunk, body.length - offset);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, offset, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(socket)).startsWith("HTTP/1.1 200");
        } finally {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }
}
