package dev.berth.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.config.LogMonitor;

/**
 * {@code GET /v1/agent/monitor}: the agent's own log, live, at {@code log_level} (default info), as Nomad streams it:
 * JSON {@code StreamFrame}s back to back whose base64 {@code Data} holds log lines, or the raw lines with
 * {@code plain=true}; {@code log_json=true} writes hclog's JSON lines. An empty frame {@code {}} goes out when nothing
 * was logged for a while, so a closed connection is noticed. {@code node_id}/{@code server_id} other than this node are
 * Nomad's 400: there is no other agent to forward to.
 */
@RestController
class MonitorController {

    private static final long HEARTBEAT_MS = 5_000;

    private final LogMonitor monitor;
    private final dev.berth.fingerprint.NodeRegistry registry;

    MonitorController(LogMonitor monitor, dev.berth.fingerprint.NodeRegistry registry) {
        this.monitor = monitor;
        this.registry = registry;
    }

    @GetMapping("/v1/agent/monitor")
    void monitor(@RequestParam(name = "log_level", defaultValue = "info") String logLevel,
            @RequestParam(name = "log_json", defaultValue = "false") boolean logJson,
            @RequestParam(defaultValue = "false") boolean plain,
            @RequestParam(name = "node_id", required = false) String nodeId,
            @RequestParam(name = "server_id", required = false) String serverId, HttpServletResponse response)
            throws IOException {
        Level level = LogMonitor.level(logLevel);
        if (level == null) {
            throw new ApiException.BadRequest("Unknown log level: " + logLevel);
        }
        if (serverId != null && !serverId.isEmpty()) {
            throw new ApiException.BadRequest("Berth runs no servers: no server \"" + serverId + "\" to monitor");
        }
        if (nodeId != null && !nodeId.isEmpty() && !nodeId.equals(registry.current().id())) {
            throw new ApiException.BadRequest("Unknown node \"" + nodeId + "\": only this agent's node can be monitored");
        }
        response.setStatus(200);
        response.setContentType(plain ? MediaType.TEXT_PLAIN_VALUE : MediaType.APPLICATION_JSON_VALUE);
        // written on the request's (virtual) thread, as the fs streams are
        stream(response.getOutputStream(), level, logJson, plain);
    }

    private void stream(OutputStream out, Level level, boolean json, boolean plain) throws IOException {
        try (LogMonitor.Subscription sub = monitor.subscribe(level, json)) {
            if (!plain) {
                out.write("{}".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            List<String> batch = new ArrayList<>();
            while (true) {
                String first = sub.lines().poll(HEARTBEAT_MS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    out.write(plain ? new byte[0] : "{}".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    continue;
                }
                batch.add(first);
                sub.lines().drainTo(batch, 256);
                long dropped = sub.takeDropped();
                StringBuilder text = new StringBuilder();
                batch.forEach(text::append);
                if (dropped > 0) {
                    text.append("[WARN]  monitor: dropped ").append(dropped).append(" log lines: the reader is too slow\n");
                }
                batch.clear();
                byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
                if (plain) {
                    out.write(data);
                } else {
                    out.write(("{\"Data\":\"" + Base64.getEncoder().encodeToString(data) + "\"}").getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
