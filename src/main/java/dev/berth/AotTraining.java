package dev.berth;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeStatus;

/**
 * The training start of {@code bin/berth train} ({@code -Dberth.aot-training=true}): the JDK records every class loaded
 * (and linked, and method profiles) until the JVM exits, into the AOT cache that later starts load in bulk. A start is
 * over when the agent answers healthy, not when the context is refreshed: the restore, the fingerprints, Tomcat's
 * connector and the first health request come after the refresh and loaded ~800 classes from the jars at every start
 * when training stopped at the refresh. So this waits until the node is ready, sends the one request every start sees
 * first ({@code GET /v1/agent/health}, over a plain socket so no HTTP client is recorded), and exits.
 */
final class AotTraining implements ApplicationListener<ApplicationReadyEvent> {

    static final String PROPERTY = "berth.aot-training";
    /** A node that never gets ready (no fingerprint in a build container) still ends the training. */
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final Logger log = LoggerFactory.getLogger(AotTraining.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        ConfigurableApplicationContext context = event.getApplicationContext();
        NodeRegistry registry = context.getBean(NodeRegistry.class);
        int port = context instanceof WebServerApplicationContext web ? web.getWebServer().getPort() : -1;
        String address = context.getEnvironment().getProperty("server.address");
        Thread.ofPlatform().name("berth-aot-training").start(() -> {
            int code = 0;
            try {
                if (awaitReady(registry)) {
                    if (port > 0) {
                        log.info("AOT training: node ready, health answered {}", health(address, port));
                    }
                } else {
                    log.warn("AOT training: node not ready after {}; the cache holds what loaded so far", LIMIT);
                }
            } catch (IOException | RuntimeException e) {
                log.warn("AOT training: health request failed: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                code = 1;
            }
            int exit = code;
            System.exit(SpringApplication.exit(context, () -> exit));
        });
    }

    private static boolean awaitReady(NodeRegistry registry) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(1);
        try (AutoCloseable subscription = registry.subscribe(node -> {
            if (node.status() == NodeStatus.READY) {
                ready.countDown();
            }
        })) {
            if (registry.current().status() == NodeStatus.READY) {
                ready.countDown();
            }
            return ready.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // closing a subscription does not fail
            throw new IllegalStateException(e);
        }
    }

    /** The status line of {@code GET /v1/agent/health}, read to the end of the response. */
    private static String health(String address, int port) throws IOException {
        InetAddress host = address == null || address.isBlank() ? InetAddress.getLoopbackAddress() : InetAddress.getByName(address);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /v1/agent/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            int end = response.indexOf("\r\n");
            return end < 0 ? response : response.substring(0, end);
        }
    }
}
