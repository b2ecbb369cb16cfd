package dev.berth.service.probe;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Nomad's {@code http} check: {@code Method} (default GET) to {@code Protocol://host:port/Path} with the check's
 * {@code Header} and {@code Body}. 200 passes with {@code nomad: http ok}; any other status below 400 passes with the
 * response body as output; 400 and above fails with the body; a transport error fails with {@code nomad: <error>}.
 * Redirects are followed (as Go's client does). The JDK client refuses to set {@code Host} and a few other restricted
 * headers; those are left out.
 */
public record HttpProbe(HttpClient client, URI uri, String method, Map<String, List<String>> headers, String body)
        implements CheckProbe {

    private static final Set<String> RESTRICTED = Set.of("host", "connection", "content-length", "expect", "upgrade");

    @Override
    public ProbeResult run(Duration timeout) throws InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
        boolean agent = false;
        if (headers != null) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (RESTRICTED.contains(h.getKey().toLowerCase())) {
                    continue;
                }
                agent |= "user-agent".equalsIgnoreCase(h.getKey());
                for (String v : h.getValue() == null ? List.<String>of() : h.getValue()) {
                    b.header(h.getKey(), v);
                }
            }
        }
        if (!agent) {
            b.header("User-Agent", "Berth-Check");
        }
        String m = method == null || method.isEmpty() ? "GET" : method;
        b.method(m, body == null || body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<InputStream> r = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            int code = r.statusCode();
            String out;
            try (InputStream in = r.body()) {
                out = code == 200 ? "nomad: http ok" : new String(in.readNBytes(ProbeResult.OUTPUT_LIMIT), StandardCharsets.UTF_8);
            }
            return new ProbeResult(code < 400, code, out);
        } catch (HttpTimeoutException e) {
            return ProbeResult.failure("nomad: " + m + " " + uri + ": context deadline exceeded (timeout " + timeout.toMillis() + " ms)");
        } catch (IOException | IllegalArgumentException e) {
            return ProbeResult.failure("nomad: " + m + " " + uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }
}
