package dev.berth.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Downloads one http(s) artifact into a file with the JDK's {@link HttpClient}, as go-getter's HTTP getter does for
 * Nomad: a GET (no HEAD first), redirects followed (never from https down to http), a non-2xx answer is an error, the
 * whole transfer must end within the read timeout, and a body larger than the size limit (announced or counted) is
 * refused. {@code insecure} skips certificate and host name checks for that request only.
 */
final class HttpFetcher {

    private final Duration readTimeout;
    private final long maxBytes;
    private final HttpClient client;
    private volatile HttpClient insecureClient;

    HttpFetcher(Duration readTimeout, long maxBytes) {
        this.readTimeout = readTimeout;
        this.maxBytes = maxBytes;
        this.client = builder().build();
    }

    void fetch(ArtifactRequest req, Path target) throws ArtifactException, InterruptedException {
        HttpRequest.Builder rb;
        try {
            rb = HttpRequest.newBuilder(req.uri()).GET().timeout(readTimeout);
            req.headers().forEach(rb::header);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException("invalid request: " + e.getMessage());
        }
        HttpClient c = req.insecure() ? insecureClient() : client;
        AtomicBoolean timedOut = new AtomicBoolean();
        HttpResponse<InputStream> resp;
        try {
            resp = c.send(rb.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new ArtifactException("error downloading '" + req.uri() + "': " + describe(e), e);
        }
        // the request timeout covers the wait for the headers; the deadline closes a body that is still streaming
        CompletableFuture<Void> deadline = new CompletableFuture<Void>().completeOnTimeout(null, readTimeout.toNanos(), TimeUnit.NANOSECONDS);
        try (InputStream body = resp.body()) {
            deadline.thenRun(() -> {
                timedOut.set(true);
                closeQuietly(body);
            });
            if (resp.statusCode() < 200 || resp.statusCode() > 299) {
                throw new ArtifactException("error downloading '" + req.uri() + "': bad response code: " + resp.statusCode());
            }
            long announced = resp.headers().firstValueAsLong("Content-Length").orElse(-1);
            if (announced > maxBytes) {
                throw new ArtifactException("error downloading '" + req.uri() + "': size of " + announced
                        + " bytes exceeds the limit of " + maxBytes + " bytes");
            }
            copyLimited(body, target, req);
        } catch (IOException e) {
            String why = timedOut.get() ? "read timeout of " + readTimeout + " reached" : describe(e);
            throw new ArtifactException("error downloading '" + req.uri() + "': " + why, e);
        } finally {
            deadline.cancel(false);
        }
    }

    private void copyLimited(InputStream body, Path target, ArtifactRequest req) throws IOException, ArtifactException {
        byte[] buf = new byte[64 * 1024];
        long total = 0;
        try (OutputStream out = Files.newOutputStream(target)) {
            for (int n; (n = body.read(buf)) >= 0; ) {
                total += n;
                if (total > maxBytes) {
                    throw new ArtifactException("error downloading '" + req.uri() + "': body exceeds the limit of " + maxBytes + " bytes");
                }
                out.write(buf, 0, n);
            }
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the reader sees the stream closed; nothing else to do
        }
    }

    private HttpClient.Builder builder() {
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(readTimeout);
    }

    private HttpClient insecureClient() throws ArtifactException {
        HttpClient c = insecureClient;
        if (c == null) {
            try {
                SSLContext ssl = SSLContext.getInstance("TLS");
                ssl.init(null, new TrustManager[] {new TrustingManager()}, null);
                c = builder().sslContext(ssl).build();
            } catch (GeneralSecurityException e) {
                throw new ArtifactException("cannot build an insecure TLS client: " + e.getMessage(), e);
            }
            insecureClient = c;
        }
        return c;
    }

    /**
     * Accepts any server certificate and host name: an extended trust manager is where the JDK checks the host name,
     * so accepting here skips both, for the clients built with it only.
     */
    private static final class TrustingManager extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
