package dev.berth.service.probe;

import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;

import static org.assertj.core.api.Assertions.assertThat;

/** The grpc check against grpc-java's own {@code grpc.health.v1} server on 127.0.0.1. */
class GrpcProbeTest {

    HealthStatusManager health;
    Server server;

    @BeforeEach
    void start() throws Exception {
        health = new HealthStatusManager();
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(health.getHealthService()).build().start();
    }

    @AfterEach
    void stop() {
        server.shutdownNow();
    }

    @Test
    void servingPassesNotServingAndUnknownServicesFail() throws Exception {
        health.setStatus("orders", ServingStatus.SERVING);
        health.setStatus("billing", ServingStatus.NOT_SERVING);
        try (GrpcProbe whole = new GrpcProbe("127.0.0.1", server.getPort(), "", false, false);
             GrpcProbe orders = new GrpcProbe("127.0.0.1", server.getPort(), "orders", false, false);
             GrpcProbe billing = new GrpcProbe("127.0.0.1", server.getPort(), "billing", false, false);
             GrpcProbe unknown = new GrpcProbe("127.0.0.1", server.getPort(), "nope", false, false)) {
            assertThat(whole.run(Duration.ofSeconds(5))).isEqualTo(new ProbeResult(true, 0, "gRPC check 127.0.0.1:" + server.getPort() + ": success"));
            assertThat(orders.run(Duration.ofSeconds(5)).success()).isTrue();
            ProbeResult b = billing.run(Duration.ofSeconds(5));
            assertThat(b.success()).isFalse();
            assertThat(b.output()).endsWith("/billing: status NOT_SERVING");
            ProbeResult u = unknown.run(Duration.ofSeconds(5));
            assertThat(u.success()).isFalse();
            assertThat(u.output()).contains("NOT_FOUND");
            // the status changes are seen on the same channel
            health.setStatus("billing", ServingStatus.SERVING);
            assertThat(billing.run(Duration.ofSeconds(5)).success()).isTrue();
        }
    }

    @Test
    void aStoppedServerFails() throws Exception {
        int port = server.getPort();
        server.shutdownNow().awaitTermination();
        try (GrpcProbe probe = new GrpcProbe("127.0.0.1", port, "", false, false)) {
            ProbeResult r = probe.run(Duration.ofSeconds(2));
            assertThat(r.success()).isFalse();
            assertThat(r.output()).startsWith("gRPC check 127.0.0.1:" + port + ": UNAVAILABLE");
        }
    }

    @Test
    void messagesAreEncodedAsTheHealthProtocolDefinesThem() {
        assertThat(GrpcProbe.request("")).isEmpty();
        assertThat(GrpcProbe.request("ab")).containsExactly(0x0A, 2, 'a', 'b');
        assertThat(GrpcProbe.servingStatus(new byte[] {0x08, 0x01})).isEqualTo(1);
        assertThat(GrpcProbe.servingStatus(new byte[0])).isZero();
        // an unknown length-delimited field before the status is skipped
        assertThat(GrpcProbe.servingStatus(new byte[] {0x12, 0x01, 'x', 0x08, 0x02})).isEqualTo(2);
    }
}
