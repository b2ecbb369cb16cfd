package dev.berth.service.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code script} check (Consul's script check, the kubelet's exec probe): {@code Command Args…} run with the task's
 * environment, in the task's directory and inside the task's cgroup(s), as the task's own processes are: a small
 * {@code sh} prelude writes its pid to each {@code cgroup.procs} and then {@code exec}s the command, so the command is
 * born inside the cgroup (counted, limited and killed with the task). Exit 0 passes; any other exit, a failure to join
 * the cgroup (exit 126) or the timeout (the process group is killed) fails. Output is stdout and stderr together.
 */
public record ScriptProbe(String command, List<String> args, Map<String, String> env, Path workDir, List<Path> cgroupProcs)
        implements CheckProbe {

    private static final String JOIN = "IFS=:; for f in $BERTH_CHECK_CGROUPS; do echo $$ > \"$f\" || { echo \"cannot join the task's cgroup: $f\"; exit 126; }; done; "
            + "unset BERTH_CHECK_CGROUPS IFS; exec \"$@\"";

    public ScriptProbe {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        cgroupProcs = cgroupProcs == null ? List.of() : List.copyOf(cgroupProcs);
    }

    @Override
    public ProbeResult run(Duration timeout) throws InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", JOIN, "sh", command));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().put("BERTH_CHECK_CGROUPS", String.join(":", cgroupProcs.stream().map(Path::toString).toList()));
        if (workDir != null && workDir.toFile().isDirectory()) {
            pb.directory(workDir.toFile());
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return ProbeResult.failure("script check could not start: " + e.getMessage());
        }
        StringBuilder out = new StringBuilder();
        Thread reader = Thread.ofVirtual().name("berth-check-out").start(() -> drain(p.getInputStream(), out));
        try {
            Process done = p.onExit().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            reader.join(Duration.ofSeconds(1));
            int code = done.exitValue();
            String text;
            synchronized (out) {
                text = out.toString();
            }
            return new ProbeResult(code == 0, code, text);
        } catch (TimeoutException e) {
            kill(p);
            return ProbeResult.failure("script check timed out after " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            kill(p);
            return ProbeResult.failure("script check failed: " + e.getCause());
        } catch (InterruptedException e) {
            kill(p);
            throw e;
        }
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static void drain(InputStream in, StringBuilder out) {
        byte[] buf = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (out) {
                    if (out.length() < ProbeResult.OUTPUT_LIMIT) {
                        out.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone; what was read stays
        }
    }
}
