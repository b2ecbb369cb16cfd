package dev.berth.service.probe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** Nomad's {@code tcp} check: a connection that opens passes ({@code nomad: tcp ok}). */
public record TcpProbe(String host, int port) implements CheckProbe {

    @Override
    public ProbeResult run(Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
            return new ProbeResult(true, 0, "nomad: tcp ok");
        } catch (IOException e) {
            return ProbeResult.failure("dial tcp " + host + ":" + port + ": " + e.getMessage());
        }
    }
}
