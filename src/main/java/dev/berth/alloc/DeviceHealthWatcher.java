package dev.berth.alloc;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceProperties.OnUnhealthy;
import dev.berth.device.DeviceStatsView;
import dev.berth.device.DeviceUpdateListener;
import dev.berth.device.TaskRef;

/**
 * Tells a task when a device instance it holds turns unhealthy or vanishes from the fingerprint: a
 * {@value #DEVICE_UNHEALTHY} task event with the reason, then the policy ({@code berth.devices.on-unhealthy}, or the
 * task group's Meta {@value DeviceProperties#ON_UNHEALTHY_META}): {@code none}, {@code restart} (counts as a failure for
 * the restart policy) or {@code fail} (the event fails the task, which is killed). When the instance is healthy again
 * and stays so for {@code berth.devices.health-hold-down}, the task gets {@value #DEVICE_HEALTHY}; a relapse within
 * the hold-down is the same outage (no new event, no new action), so a flapping device does not restart a task in a loop.
 */
@Component
public class DeviceHealthWatcher implements DeviceUpdateListener, DisposableBean, org.springframework.context.SmartLifecycle {

    public static final String DEVICE_UNHEALTHY = "Device Unhealthy";

    public static final String DEVICE_HEALTHY = "Device Healthy";

    private static final Logger log = LoggerFactory.getLogger(DeviceHealthWatcher.class);

    private final DeviceAllocator allocator;

    private final AllocManager allocs;

    private final DeviceProperties properties;

    private final Clock clock;

    private final dev.berth.device.DeviceManager devices;

    private volatile boolean running;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("berth-device-health").factory());

    private final DeviceOutages outages;

    public DeviceHealthWatcher(DeviceAllocator allocator, AllocManager allocs, DeviceProperties properties, Clock clock,
            dev.berth.device.DeviceManager devices) {
        this.devices = devices;
        this.allocator = allocator;
        this.allocs = allocs;
        this.properties = properties;
        this.clock = clock;
        this.outages = new DeviceOutages(properties.healthHoldDown());
    }

    @Override
    public synchronized void devicesUpdated(List<DeviceGroup> devices) {
        Map<String, TaskRef> holders = new HashMap<>();
        allocator.holders().forEach((id, holder) -> holders.put(id, holder.task()));
        for (DeviceOutages.Notice notice : outages.update(holders, DeviceStatsView.instances(devices), clock.instant())) {
            if (!unhealthy(notice.instanceId(), notice.holder(), notice.reason())) {
                // a restored allocation whose runner is not back yet: told on a later update
                outages.forget(notice.instanceId());
            }
        }
        if (outages.waitingForRecovery()) {
            timer.schedule(this::recoveries, properties.healthHoldDown().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void recoveries() {
        for (DeviceOutages.Notice notice : outages.due(clock.instant())) {
            taskRunner(notice.holder()).ifPresent((runner) -> runner.emit(event(DEVICE_HEALTHY,
                    "Device " + notice.instanceId() + " is healthy again", notice.instanceId(), null, false)));
        }
    }

    /** Tells the holder and applies the policy; false when its runner is not there (yet). */
    private boolean unhealthy(String id, TaskRef holder, String reason) {
        var runner = allocs.runnerOf(holder.allocId());
        if (runner.isEmpty()) {
            return false;
        }
        OnUnhealthy policy = policy(runner.get().record().spec().group().orElse(null));
        TaskRunner task = runner.get().task(holder.task());
        if (task == null) {
            return false;
        }
        String message = "Device " + id + " is unhealthy: " + reason;
        task.emit(event(DEVICE_UNHEALTHY, message, id, reason, policy == OnUnhealthy.FAIL));
        if (policy == OnUnhealthy.NONE || runner.get().record().spec().desiredTerminal()) {
            return true;
        }
        Thread.ofVirtual().name("berth-device-unhealthy-" + holder.task()).start(() -> {
            try {
                if (policy == OnUnhealthy.RESTART) {
                    task.restart(message, true);
                }
                else {
                    task.kill(message);
                }
            }
            catch (TaskRunner.TaskNotRunningException notRunning) {
                // nothing runs on the device: the event is all there is to do
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            catch (RuntimeException ex) {
                log.warn("device policy {} failed: alloc={} task={}", policy, holder.allocId(), holder.task(), ex);
            }
        });
        return true;
    }

    /** The group's Meta override, else the agent's setting; an unknown Meta value falls back to the setting. */
    OnUnhealthy policy(TaskGroupSpec group) {
        String override = group == null || group.meta() == null ? null : group.meta().get(DeviceProperties.ON_UNHEALTHY_META);
        OnUnhealthy parsed = OnUnhealthy.parse(override);
        return parsed != null ? parsed : properties.onUnhealthy();
    }

    private java.util.Optional<TaskRunner> taskRunner(TaskRef ref) {
        return allocs.runnerOf(ref.allocId()).map((runner) -> runner.task(ref.task()));
    }

    private TaskEvent event(String type, String message, String id, String reason, boolean fails) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("device", id);
        if (reason != null) {
            details.put("reason", reason);
        }
        details.put("message", message);
        return new TaskEvent(type, clock.instant(), message, details, fails, 0, 0, 0, 0);
    }

    /** After start-up (allocations restored): devices that were lost while the agent was down are told now. */
    @Override
    public void start() {
        running = true;
        devicesUpdated(devices.devices());
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }

    /** For tests: the hold-down in effect. */
    Duration holdDown() {
        return properties.healthHoldDown();
    }
}
