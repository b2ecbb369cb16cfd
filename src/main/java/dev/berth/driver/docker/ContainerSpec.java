package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Device;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;

import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDevice;

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

    /** The container's command; unset fields keep the image's own CMD/ENTRYPOINT/WORKDIR (docker-java refuses nulls). */
    static void command(CreateContainerCmd create, DockerTaskConfig config) {
        if (!config.cmd().isEmpty()) {
            create.withCmd(config.cmd());
        }
        if (!config.entrypoint().isEmpty()) {
            create.withEntrypoint(config.entrypoint());
        }
        if (config.workDir() != null) {
            create.withWorkingDir(config.workDir());
        }
    }

    static HostConfig hostConfig(TaskConfig task, DockerTaskConfig config) throws IOException {
        return hostConfig(task, config, task.reservedCores().isEmpty() ? null : task.reservedCores().toString());
    }

    /** @param cpuset the cores the container may run on ({@code CpusetCpus}); null: every core the engine gives */
    static HostConfig hostConfig(TaskConfig task, DockerTaskConfig config, String cpuset) throws IOException {
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
        List<Mount> mounts = new ArrayList<>();
        for (TaskDevice device : task.devices()) {
            switch (validate(device)) {
                case TaskDevice.Node node -> devices.add(new Device(node.cgroupPerms(), node.taskPath(), node.hostPath()));
                // The Mounts API takes source and target as separate fields (Binds are colon-joined strings).
                case TaskDevice.Mount mount -> mounts.add(new Mount().withType(MountType.BIND).withSource(mount.hostPath())
                        .withTarget(mount.taskPath()).withReadOnly(mount.readOnly()));
            }
        }
        HostConfig host = HostConfig.newHostConfig().withNetworkMode(config.networkMode()).withBinds(binds);
        if (!devices.isEmpty()) {
            host.withDevices(devices);
        }
        if (!mounts.isEmpty()) {
            host.withMounts(mounts);
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
        if (cpuset != null) {
            host.withCpusetCpus(cpuset); // its reserved cores alone, or the cores nobody reserved
        }
        return host;
    }

    /**
     * Checks a device handed over by a reservation: absolute host and task paths, and for a node cgroup permissions made of
     * {@code r}, {@code w}, {@code m}.
     *
     * @throws IllegalArgumentException naming the device when it is malformed
     */
    static TaskDevice validate(TaskDevice device) {
        boolean pathsOk = device.hostPath() != null && device.hostPath().startsWith("/") && device.taskPath() != null
                && device.taskPath().startsWith("/");
        boolean permsOk = !(device instanceof TaskDevice.Node node) || node.cgroupPerms() != null && node.cgroupPerms().matches("[rwm]+");
        if (!pathsOk || !permsOk) {
            throw new IllegalArgumentException("invalid device " + device + ": want absolute host and task paths"
                    + (device instanceof TaskDevice.Node ? " and permissions of r, w, m" : ""));
        }
        return device;
    }
}
