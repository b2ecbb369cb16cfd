package dev.berth.driver.docker;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Info;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.host.ProcStat;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskHandles;

/** Stateless engine calls the driver makes around a container: image presence, stale names, what to persist. */
final class ContainerEngine {

    private static final Logger log = LoggerFactory.getLogger(ContainerEngine.class);

    /** Request/response calls (bounded by the driver's call timeout). */
    private final DockerClient client;
    /** Pulls: a long stream of progress, not bounded. */
    private final DockerClient streaming;
    private final String host;

    ContainerEngine(DockerClient client, DockerClient streaming, String host) {
        this.client = client;
        this.streaming = streaming;
        this.host = host;
    }

    /**
     * Handles ({@code container_id} only) of every container, in any state, labelled with {@code nodeId}. The label is
     * checked again here: a container of another node must never be returned, whatever the engine's filter does.
     */
    static List<TaskHandle> owned(DockerClient client, String nodeId, Instant now) {
        List<TaskHandle> found = new ArrayList<>();
        for (Container c : client.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(DockerDriver.LABEL_NODE_ID, nodeId)).exec()) {
            Map<String, String> labels = c.getLabels() == null ? Map.of() : c.getLabels();
            if (!nodeId.equals(labels.get(DockerDriver.LABEL_NODE_ID))) {
                continue;
            }
            String alloc = labels.get(DockerDriver.LABEL_ALLOC_ID);
            String task = labels.get(DockerDriver.LABEL_TASK);
            String taskId = alloc != null && task != null ? alloc + "/" + task : "unknown:" + c.getId();
            found.add(new TaskHandle(DockerDriver.NAME, taskId, now, Map.of(DockerDriver.STATE_CONTAINER_ID, c.getId())));
        }
        return found;
    }

    /** Inspects {@code image}; pulls it when absent and {@code pullMissing}, else fails unrecoverably. */
    void ensureImage(String image, boolean pullMissing) throws DriverException {
        try {
            client.inspectImageCmd(image).exec();
            return;
        } catch (NotFoundException e) {
            if (!pullMissing) {
                throw new DriverException("Failed to find docker image \"" + image + "\": it is not in the engine's image store and "
                        + "pulling is disabled (berth.drivers.docker.pull = never); load it on this node or set pull = missing",
                        false, e);
            }
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(host, "failed to inspect image " + image, e), true, e);
        }
        try {
            streaming.pullImageCmd(image).start().awaitCompletion(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while pulling " + image, true, e);
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(host, "Failed to pull `" + image + "` (berth.drivers.docker.pull = missing)", e),
                    true, e);
        }
    }

    /** {@code container_id}, and when found {@code pid}, {@code start_ticks}, {@code cgroup}, {@code cgroup_version}. */
    Map<String, String> containerState(String id) {
        Map<String, String> state = new HashMap<>();
        state.put(DockerDriver.STATE_CONTAINER_ID, id);
        try {
            InspectContainerResponse inspect = inspectWithRetry(id);
            Long pid = inspect.getState().getPidLong();
            Optional<ContainerCgroup> cgroup = Optional.empty();
            if (pid != null && pid > 0) {
                state.put(TaskHandles.PID, pid.toString());
                // pid + start time let a /proc-based reader tell the container's init from a recycled pid
                ProcStat.read(pid).ifPresent(stat -> state.put(TaskHandles.START_TICKS, Long.toString(stat.startTicks())));
                cgroup = ContainerCgroup.ofPid(pid);
            }
            // a task that already exited has no pid to look at: derive the path from the engine's cgroup layout
            cgroup.or(() -> engineCgroup(id, inspect.getHostConfig() == null ? null : inspect.getHostConfig().getCgroupParent()))
                    .ifPresent(found -> {
                        state.put(ContainerCgroup.STATE_VERSION, Integer.toString(found.version()));
                        state.put(ContainerCgroup.STATE_PATH, found.statePath());
                    });
        } catch (RuntimeException e) {
            log.debug("inspect of {} for its cgroup failed: {}", id, e.toString());
        }
        return state;
    }

    /** A busy engine can fail a single inspect; the handle must still learn the container's pid and cgroup. */
    private InspectContainerResponse inspectWithRetry(String id) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return client.inspectContainerCmd(id).exec();
            } catch (com.github.dockerjava.api.exception.NotFoundException e) {
                throw e;
            } catch (RuntimeException e) {
                last = e;
                log.debug("inspect of {} failed (attempt {}): {}", id, attempt + 1, e.toString());
                java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L * (attempt + 1));
            }
        }
        throw last;
    }

    private Optional<ContainerCgroup> engineCgroup(String id, String cgroupParent) {
        try {
            Info info = client.infoCmd().exec();
            return Optional.of(ContainerCgroup.ofEngineLayout(id, cgroupParent, info.getCGroupDriver(), info.getCGroupVersion()));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** For a container this driver instance does not track: polls its state until {@code timeout}; true if still running. */
    boolean isRunningAfter(String id, java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            try {
                if (!Boolean.TRUE.equals(client.inspectContainerCmd(id).exec().getState().getRunning())) {
                    return false;
                }
                Thread.sleep(50);
            } catch (NotFoundException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        } while (System.nanoTime() < deadline);
        return true;
    }

    /** Removes a container left over under {@code name} (an earlier attempt of the same task). */
    void removeStale(String name) {
        try {
            client.removeContainerCmd(name).withForce(true).exec();
            log.info("removed stale container {}", name);
        } catch (NotFoundException e) {
            // the usual case
        }
    }

}
