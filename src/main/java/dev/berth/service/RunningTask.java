package dev.berth.service;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a script check needs of a running task: its driver, environment, directory and the {@code cgroup.procs} files a
 * check process joins (empty when the task has no cgroup of ours).
 */
public record RunningTask(String driver, Map<String, String> env, Path taskDir, List<Path> cgroupProcs) {

    public RunningTask {
        env = Map.copyOf(env);
        cgroupProcs = List.copyOf(cgroupProcs);
    }
}
