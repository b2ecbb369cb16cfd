package dev.berth.driver.docker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CpuPartition;

/**
 * Keeps containers that reserved no core off the cores other tasks reserved, as the cgroups of exec and raw_exec tasks
 * are kept: a reserved core runs its task alone. The engine owns its containers' cgroups, so the cores go through it:
 * {@code CpusetCpus} when a container is created, and an update of every running container of this node without
 * reserved cores whenever the node's {@link CpuPartition} changes.
 *
 * <p>While no core is reserved, containers get no cpuset (the engine's default: every core). Once one is, the others run
 * on the shared cores; when the last reservation ends they are put back on every reservable core.
 *
 * <p>Updates run on one daemon thread, outside the core allocator's lock; each pass applies the newest partition, so
 * a burst of changes costs one pass. A container created while a pass runs is checked again by its starter
 * ({@link #recheck}).
 */
final class SharedCores {

    private static final Logger log = LoggerFactory.getLogger(SharedCores.class);

    private final String nodeId;
    /** Null until the first partition: containers then get no cpuset. */
    private volatile CpuPartition partition;
    /** Counts partition changes; a starter compares it before and after its create. */
    private final AtomicLong generation = new AtomicLong();
    /** Made on the first change that must reach running containers. */
    private ExecutorService updater;

    SharedCores(String nodeId) {
        this.nodeId = nodeId;
    }

    /** The cpuset of a new container: its reserved cores, else the shared ones once any core is reserved, else none. */
    String cpusetFor(CoreSet reserved) {
        if (!reserved.isEmpty()) {
            return reserved.toString();
        }
        CpuPartition now = partition;
        if (now == null || now.reservations().isEmpty()) {
            return null;
        }
        return now.shared().toString();
    }

    long generation() {
        return generation.get();
    }

    /**
     * The node's partition changed. When {@code client} gives an engine connection (null: the driver never connected,
     * so it has no container to move), the running containers without reserved cores are updated on the updater thread.
     */
    void apply(CpuPartition changed, Supplier<DockerClient> client) {
        CpuPartition before = partition;
        partition = changed;
        generation.incrementAndGet();
        boolean wasShared = before == null || before.reservations().isEmpty();
        if (client == null || (wasShared && changed.reservations().isEmpty())) {
            return;
        }
        updater().execute(() -> updateAll(client.get()));
    }

    /** A container created while the partition changed: gives it the cores of the partition now. */
    void recheck(DockerClient client, String containerId, CoreSet reserved, long generationAtCreate) {
        CpuPartition now = partition;
        if (reserved.isEmpty() && generation.get() != generationAtCreate && !now.shared().isEmpty()) {
            update(client, containerId, now.shared().toString());
        }
    }

    private void updateAll(DockerClient client) {
        CpuPartition now = partition;
        String cores = now.shared().toString();
        if (cores.isEmpty()) {
            return; // the CPU is not fingerprinted yet: no core to move anything to
        }
        List<Container> running = client.listContainersCmd()
                .withLabelFilter(Map.of(DockerDriver.LABEL_NODE_ID, nodeId)).exec();
        for (Container c : running) {
            Map<String, String> labels = c.getLabels() == null ? Map.of() : c.getLabels();
            String alloc = labels.get(DockerDriver.LABEL_ALLOC_ID);
            String task = labels.get(DockerDriver.LABEL_TASK);
            if (nodeId.equals(labels.get(DockerDriver.LABEL_NODE_ID)) && alloc != null && task != null
                    && now.coresOf(alloc, task).isEmpty()) {
                update(client, c.getId(), cores);
            }
        }
    }

    private static void update(DockerClient client, String containerId, String cores) {
        try {
            client.updateContainerCmd(containerId).withCpusetCpus(cores).exec();
        } catch (RuntimeException e) {
            log.warn("could not move container {} to the shared cores {}: {}", containerId, cores, e.toString());
        }
    }

    private synchronized ExecutorService updater() {
        if (updater == null) {
            updater = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "berth-docker-cores");
                t.setDaemon(true);
                return t;
            });
        }
        return updater;
    }

    synchronized void close() {
        if (updater != null) {
            updater.shutdownNow();
        }
    }
}
