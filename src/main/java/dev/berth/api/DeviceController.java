package dev.berth.api;

import java.util.List;

import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceManager;

import com.fasterxml.jackson.annotation.JsonProperty;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Berth's own device endpoints (Nomad shows devices only inside the node and the stats): the node's device groups in
 * {@code NodeResources.Devices} shape, the latest device statistics as in {@code /v1/client/stats} {@code DeviceStats},
 * and who holds which instance.
 */
@RestController
class DeviceController {

    private final DeviceManager manager;

    private final DeviceAllocator allocator;

    DeviceController(DeviceManager manager, DeviceAllocator allocator) {
        this.manager = manager;
        this.allocator = allocator;
    }

    @GetMapping("/v1/client/devices")
    List<DeviceGroup> devices() {
        return manager.devices();
    }

    @GetMapping("/v1/client/devices/stats")
    List<DeviceGroupStats> stats() {
        return manager.statsIndex().all();
    }

    /** One held instance. */
    record Holding(@JsonProperty("ID") String id, @JsonProperty("Vendor") String vendor, @JsonProperty("Type") String type,
            @JsonProperty("Name") String name, @JsonProperty("AllocID") String allocId, @JsonProperty("JobID") String job,
            @JsonProperty("Task") String task, @JsonProperty("Healthy") boolean healthy,
            @JsonProperty("HealthDescription") String healthDescription) {
    }

    /** Every held instance with its holder and health; an instance the plugin no longer lists is unhealthy (gone). */
    @GetMapping("/v1/client/devices/reservations")
    List<Holding> reservations() {
        var instances = dev.berth.device.DeviceStatsView.instances(manager.devices());
        return allocator.holders().entrySet().stream()
                .sorted(java.util.Map.Entry.comparingByKey())
                .map((held) -> {
                    var instance = instances.get(held.getKey());
                    var holder = held.getValue();
                    return new Holding(held.getKey(), holder.group().vendor(), holder.group().type(), holder.group().name(),
                            holder.task().allocId(), holder.task().job(), holder.task().task(), instance != null && instance.healthy(),
                            instance == null ? dev.berth.device.DeviceStatsView.GONE : instance.healthDescription());
                })
                .toList();
    }
}
