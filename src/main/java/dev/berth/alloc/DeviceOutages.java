package dev.berth.alloc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceStatsView;
import dev.berth.device.TaskRef;

/**
 * The outage state of held device instances, without timers (the caller passes the time): an instance turning
 * unhealthy or vanishing opens an outage and yields an {@link Kind#UNHEALTHY} notice; healthy again, the outage waits
 * out the hold-down, and {@link #due} yields {@link Kind#RECOVERED} once it stayed healthy that long. A relapse within the
 * hold-down continues the same outage (no notice). Releasing the instance (or a new holder) ends its outage silently.
 */
final class DeviceOutages {

    enum Kind { UNHEALTHY, RECOVERED }

    record Notice(Kind kind, String instanceId, TaskRef holder, String reason) {
    }

    private static final class Outage {
        final TaskRef holder;
        Instant healthySince; // null while unhealthy

        Outage(TaskRef holder) {
            this.holder = holder;
        }
    }

    private final Duration holdDown;

    private final Map<String, Outage> outages = new HashMap<>();

    DeviceOutages(Duration holdDown) {
        this.holdDown = holdDown;
    }

    /**
     * @param holders   instance → the task holding it, now
     * @param instances the node's instances, now (a held instance missing here has vanished)
     * @return the {@code UNHEALTHY} notices of outages that begin now
     */
    List<Notice> update(Map<String, TaskRef> holders, Map<String, DeviceInstance> instances, Instant now) {
        outages.entrySet().removeIf((entry) -> !entry.getValue().holder.equals(holders.get(entry.getKey())));
        List<Notice> notices = new ArrayList<>();
        holders.forEach((id, holder) -> {
            DeviceInstance instance = instances.get(id);
            boolean healthy = instance != null && instance.healthy();
            Outage outage = outages.get(id);
            if (!healthy) {
                if (outage == null) {
                    outages.put(id, new Outage(holder));
                    notices.add(new Notice(Kind.UNHEALTHY, id, holder, instance == null ? DeviceStatsView.GONE : instance.healthDescription()));
                }
                else {
                    outage.healthySince = null; // a relapse within the hold-down: the same outage
                }
            }
            else if (outage != null && outage.healthySince == null) {
                outage.healthySince = now;
            }
        });
        return notices;
    }

    /** The outages that stayed healthy for the hold-down by {@code now}: each yields {@code RECOVERED} and ends. */
    List<Notice> due(Instant now) {
        List<Notice> notices = new ArrayList<>();
        outages.entrySet().removeIf((entry) -> {
            Instant since = entry.getValue().healthySince;
            if (since != null && !since.plus(holdDown).isAfter(now)) {
                notices.add(new Notice(Kind.RECOVERED, entry.getKey(), entry.getValue().holder, null));
                return true;
            }
            return false;
        });
        return notices;
    }

    /** Forgets an outage whose notice could not be delivered, so the next update opens it again. */
    void forget(String instanceId) {
        outages.remove(instanceId);
    }

    boolean waitingForRecovery() {
        return outages.values().stream().anyMatch((outage) -> outage.healthySince != null);
    }
}
