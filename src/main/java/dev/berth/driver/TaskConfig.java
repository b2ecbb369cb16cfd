package dev.berth.driver;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.berth.host.CoreSet;

/**
 * Everything a driver needs to start one task. Built by the task runner after its prestart hooks ran.
 *
 * @param id           unique id of this task instance: {@code <allocId>/<taskName>}
 * @param allocId      the allocation ID
 * @param taskName     the task's name
 * @param jobName      the job's name
 * @param taskGroup    the task group's name
 * @param namespace    the job's namespace
 * @param config       the task's driver config (already validated by {@link TaskDriver#validate})
 * @param env          the complete environment of the task
 * @param allocDir     host path of the allocation directory
 * @param taskDir      host path of the task directory
 * @param stdoutPath   file (or rotating-writer base) for stdout; the driver appends
 * @param stderrPath   file for stderr
 * @param cpuMhz       CPU shares in MHz (0 = unset)
 * @param memoryMb     memory limit in MB (0 = unset)
 * @param memoryMaxMb  memory hard limit in MB (0 = unset)
 * @param devices      device nodes and mounts handed over by reservations (empty when none); drivers without isolation
 *                     (raw_exec) ignore them, the task still gets the device env
 * @param reservedCores the cores the task reserved ({@code resources { cores = N }}): it runs on these alone; empty when
 *                      it shares the node's unreserved cores
 */
public record TaskConfig(
        String id,
        String allocId,
        String taskName,
        String jobName,
        String taskGroup,
        String namespace,
        Map<String, Object> config,
        Map<String, String> env,
        Path allocDir,
        Path taskDir,
        Path stdoutPath,
        Path stderrPath,
        int cpuMhz,
        int memoryMb,
        int memoryMaxMb,
        List<TaskDevice> devices,
        CoreSet reservedCores) {

    public TaskConfig {
        Objects.requireNonNull(id, "'id' must not be null");
        config = config == null ? Map.of() : Map.copyOf(config);
        env = env == null ? Map.of() : Map.copyOf(env);
        devices = devices == null ? List.of() : List.copyOf(devices);
        reservedCores = reservedCores == null ? CoreSet.EMPTY : reservedCores;
    }

    /** A task without reserved cores. */
    public TaskConfig(String id, String allocId, String taskName, String jobName, String taskGroup, String namespace,
                      Map<String, Object> config, Map<String, String> env, Path allocDir, Path taskDir, Path stdoutPath,
                      Path stderrPath, int cpuMhz, int memoryMb, int memoryMaxMb, List<TaskDevice> devices) {
        this(id, allocId, taskName, jobName, taskGroup, namespace, config, env, allocDir, taskDir, stdoutPath, stderrPath, cpuMhz,
                memoryMb, memoryMaxMb, devices, CoreSet.EMPTY);
    }

    /** The same task without reserved cores: for a launcher whose caller already put the task's cgroup on them (exec). */
    public TaskConfig withoutReservedCores() {
        return new TaskConfig(id, allocId, taskName, jobName, taskGroup, namespace, config, env, allocDir, taskDir, stdoutPath,
                stderrPath, cpuMhz, memoryMb, memoryMaxMb, devices, CoreSet.EMPTY);
    }

    /** Nomad's default kill timeout. */
    public static final Duration DEFAULT_KILL_TIMEOUT = Duration.ofSeconds(5);
}
