package dev.berth.driver.docker;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Info;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ProcStat;

/** Stateless engine calls the driver makes around a container: image presence, stale names, what to persist. */
final class ContainerEngine {

    private static final Logger log = LoggerFactory.getLogger(ContainerEngine.class);

    private final DockerClient client;

    ContainerEngine(DockerClient client) {
        this.client = client;
    }

    /** Inspects {@code image}; pulls it when absent and {@code pullMissing}, else fails unrecoverably. */
    void ensureImage(String image, boolean pullMissing) throws DriverException {
        try {
            client.inspectImageCmd(image).exec();
            return;
        } catch (NotFoundException e) {
            if (!pullMissing) {
                throw new DriverException("Failed to find docker image \"" + image + "\" (pull policy 'never')", false, e);
            }
        } catch (RuntimeException e) {
            throw new DriverException("failed to inspect image " + image + ": " + e.getMessage(), true, e);
        }
        try {
            client.pullImageCmd(image).start().awaitCompletion(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while pulling " + image, true, e);
        } catch (RuntimeException e) {
            throw new DriverException("Failed to pull `" + image + "`: " + e.getMessage(), true, e);
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
                state.put("pid", pid.toString());
                // pid + start time let a /proc-based reader tell the container's init from a recycled pid
                ProcStat.read(pid).ifPresent(stat -> state.put("start_ticks", Long.toString(stat.startTicks())));
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
