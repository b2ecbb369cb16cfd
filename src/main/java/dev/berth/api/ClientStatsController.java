package dev.berth.api;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.config.NodeIdentity;
import dev.berth.device.DeviceManager;
import dev.berth.stats.HostStatsCollector;

/** {@code GET /v1/client/stats}: the latest host snapshot in Nomad's {@code HostStats} shape. Never collects,
 *  except for the very first request before the collector's first tick. */
@RestController
class ClientStatsController {

    private final HostStatsCollector collector;
    private final NodeIdentity node;
    private final ObjectProvider<DeviceManager> devices;

    ClientStatsController(HostStatsCollector collector, NodeIdentity node, ObjectProvider<DeviceManager> devices) {
        this.collector = collector;
        this.node = node;
        this.devices = devices;
    }

    /** {@code node_id}, as in Nomad, selects the node; this agent only answers for itself. */
    @GetMapping("/v1/client/stats")
    HostStatsResponse stats(@RequestParam(name = "node_id", required = false) String nodeId) {
        if (nodeId != null && !nodeId.isEmpty() && !nodeId.equals(node.id())) {
            throw new ErrorResponseException(HttpStatus.NOT_FOUND,
                    ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "Unknown node"), null);
        }
        DeviceManager deviceManager = devices.getIfAvailable();
        // device statistics come from the plugins' own (slower) streams, read from their index: no plugin call here
        return HostStatsResponse.from(collector.latest(),
                deviceManager == null ? java.util.List.of() : deviceManager.statsIndex().all());
    }
}
