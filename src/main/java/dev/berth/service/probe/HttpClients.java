package dev.berth.service.probe;

import java.net.Socket;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The two HTTP clients every http check shares (one verifies TLS, one for {@code TLSSkipVerify}); both run their
 * callbacks on the given (virtual-thread) executor. Each is made on its first use: an agent without http checks
 * keeps no selector threads and loads no TLS classes for them. Thread-safe; close to free their selector threads.
 */
public final class HttpClients implements AutoCloseable {

    private final ExecutorService executor;
    private HttpClient verifying;
    private HttpClient insecure;

    public HttpClients(ExecutorService executor) {
        this.executor = executor;
    }

    private static HttpClient.Builder builder(ExecutorService executor) {
        return HttpClient.newBuilder().executor(executor).connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).version(HttpClient.Version.HTTP_1_1);
    }

    public synchronized HttpClient client(boolean skipVerify) {
        if (skipVerify) {
            if (insecure == null) {
                insecure = builder(executor).sslContext(trustAll()).build();
            }
            return insecure;
        }
        if (verifying == null) {
            verifying = builder(executor).build();
        }
        return verifying;
    }

    /** How many of the two clients were made (for tests: they are made on first use only). */
    synchronized int made() {
        return (verifying == null ? 0 : 1) + (insecure == null ? 0 : 1);
    }

    @Override
    public synchronized void close() {
        if (verifying != null) {
            verifying.close();
        }
        if (insecure != null) {
            insecure.close();
        }
    }

    /** Accepts any server certificate and host name (an extended trust manager does the host check itself). */
    static SSLContext trustAll() {
        TrustManager tm = new X509ExtendedTrustManager() {
            @Override public void checkClientTrusted(X509Certificate[] c, String a, Socket s) { }
            @Override public void checkServerTrusted(X509Certificate[] c, String a, Socket s) { }
            @Override public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) { }
            @Override public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) { }
            @Override public void checkClientTrusted(X509Certificate[] c, String a) { }
            @Override public void checkServerTrusted(X509Certificate[] c, String a) { }
            @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        };
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {tm}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS context", e);
        }
    }
}
