package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Device;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;

import dev.berth.driver.TaskConfig;

/** Turns a task and its docker config into the container's name, environment, labels and host config. */
final class ContainerSpec {

    private static final long MIB = 1024L * 1024L;

    private ContainerSpec() {
    }

    static String containerName(TaskConfig task) {
        String taskName = task.taskName() == null ? "task" : task.taskName();
        String base = (taskName + "-" + (task.allocId() == null ? task.id() : task.allocId())).replaceAll("[^a-zA-Z0-9_.-]", "_");
        return base.matches("^[a-zA-Z0-9].*") ? base : "t" + base;
    }

    static List<String> env(TaskConfig task, DockerTaskConfig config) {
        Map<String, String> env = new LinkedHashMap<>(task.env());
        // paths as the task sees them inside the container, whatever the runner computed for the host
        env.put("NOMAD_ALLOC_DIR", "/alloc");
        env.put("NOMAD_TASK_DIR", "/local");
        env.put("NOMAD_SECRETS_DIR", "/secrets");
        env.putAll(config.env());
        List<String> list = new ArrayList<>();
        env.forEach((k, v) -> list.add(k + "=" + v));
        return list;
    }

    /** The user's labels, then Berth's own (which win: the reconciliation relies on {@code dev.berth.node_id}). */
    static Map<String, String> labels(TaskConfig task, DockerTaskConfig config, String nodeId) {
        Map<String, String> labels = new LinkedHashMap<>(config.labels());
        labels.put(DockerDriver.LABEL_NODE_ID, nodeId);
        putIfNotNull(labels, DockerDriver.LABEL_ALLOC_ID, task.allocId());
        putIfNotNull(labels, DockerDriver.LABEL_TASK, task.taskName());
        putIfNotNull(labels, DockerDriver.LABEL_JOB, task.jobName());
        putIfNotNull(labels, DockerDriver.LABEL_TASK_GROUP, task.taskGroup());
        putIfNotNull(labels, DockerDriver.LABEL_NAMESPACE, task.namespace());
        return labels;
    }

    private static void putIfNotNull(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    static HostConfig hostConfig(TaskConfig task, DockerTaskConfig config) throws IOException {
        List<Bind> binds = new ArrayList<>();
        if (task.allocDir() != null) {
            binds.add(Bind.parse(task.allocDir().toAbsolutePath() + ":/alloc"));
        }
        if (task.taskDir() != null) {
            Path local = Files.createDirectories(task.taskDir().resolve("local"));
            Path secrets = Files.createDirectories(task.taskDir().resolve("secrets"));
            binds.add(Bind.parse(local.toAbsolutePath() + ":/local"));
            binds.add(Bind.parse(secrets.toAbsolutePath() + ":/secrets"));
        }
        for (DockerTaskConfig.Volume volume : config.volumes()) {
            binds.add(Bind.parse(volume.hostPath(task.taskDir()).toAbsolutePath() + ":" + volume.containerPath()
                    + (volume.readOnly() ? ":ro" : ":rw")));
        }
        List<Device> devices = new ArrayList<>();
        for (String entry : task.devices()) {
            switch (DeviceEntry.parse(entry)) {
                case DeviceEntry.Node node -> devices.add(new Device(node.perms(), node.taskPath(), node.hostPath()));
                case DeviceEntry.Mount mount -> binds.add(new Bind(mount.hostPath(), new Volume(mount.taskPath()),
                        mount.readOnly() ? AccessMode.ro : AccessMode.rw));
            }
        }
        HostConfig host = HostConfig.newHostConfig().withNetworkMode(config.networkMode()).withBinds(binds);
        if (!devices.isEmpty()) {
            host.withDevices(devices);
        }
        long hardMb = config.memoryHardLimitMb() > 0 ? config.memoryHardLimitMb() : task.memoryMaxMb();
        if (hardMb > 0 && hardMb > task.memoryMb()) {
            host.withMemory(hardMb * MIB);
            if (task.memoryMb() > 0) {
                host.withMemoryReservation(task.memoryMb() * MIB);
            }
        } else if (task.memoryMb() > 0) {
            host.withMemory(task.memoryMb() * MIB);
        }
        if (task.cpuMhz() > 0) {
            // Nomad hands its MHz straight to Docker as relative shares; the kernel minimum is 2
            host.withCpuShares(Math.max(2, task.cpuMhz()));
        }
        return host;
    }

    /**
     * One {@code TaskConfig.devices} string: {@code device:<hostPath>:<taskPath>:<cgroupPerms>} (a device node, to
     * {@code HostConfig.Devices}) or {@code mount:<hostPath>:<taskPath>:ro|rw} (a bind). Paths must be absolute.
     */
    sealed interface DeviceEntry {

        record Node(String hostPath, String taskPath, String perms) implements DeviceEntry {
        }

        record Mount(String hostPath, String taskPath, boolean readOnly) implements DeviceEntry {
        }

        /** @throws IllegalArgumentException naming the entry when it is malformed */
        static DeviceEntry parse(String entry) {
            boolean node = entry.startsWith("device:");
            if (!node && !entry.startsWith("mount:")) {
                throw invalid(entry);
            }
            String rest = entry.substring(entry.indexOf(':') + 1);
            int last = rest.lastIndexOf(':');
            int first = rest.indexOf(':');
            if (first <= 0 || last <= first) {
                throw invalid(entry);
            }
            String host = rest.substring(0, first);
            String target = rest.substring(first + 1, last);
            String mode = rest.substring(last + 1);
            if (!host.startsWith("/") || !target.startsWith("/")) {
                throw invalid(entry);
            }
            if (node) {
                if (mode.isEmpty() || !mode.matches("[rwm]+")) {
                    throw invalid(entry);
                }
                return new Node(host, target, mode);
            }
            if (!mode.equals("ro") && !mode.equals("rw")) {
                throw invalid(entry);
            }
            return new Mount(host, target, mode.equals("ro"));
        }

        private static IllegalArgumentException invalid(String entry) {
            return new IllegalArgumentException("invalid device entry '" + entry
                    + "': want device:<hostPath>:<taskPath>:<rwm> or mount:<hostPath>:<taskPath>:ro|rw");
        }
    }
}
