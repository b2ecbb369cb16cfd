package dev.berth.alloc.task;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.host.CoreSet;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;

/**
 * Builds a task's environment (Nomad's {@code taskenv}). Precedence, lowest first: built-ins → task meta → host env
 * (only keys not yet set) → task {@code Env} → hook envs (added by the runner). Port, address and meta keys are cleaned
 * of invalid characters.
 */
public final class TaskEnvironment {

    /** Host variables handed to raw_exec tasks (Nomad passes the whole host env minus a denylist; we keep it small). */
    static final List<String> HOST_BASICS = List.of("PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER", "SHELL", "TMPDIR");

    private static final Pattern INVALID = Pattern.compile("[^A-Za-z0-9_]");
    private static final String HOST_IP = "127.0.0.1";

    private TaskEnvironment() {
    }

    /**
     * @param alloc      the allocation (with assigned ports)
     * @param group      its task group
     * @param task       the task
     * @param datacenter the node's datacenter
     * @param hostEnv    the agent's environment (filtered to {@link #HOST_BASICS})
     */
    public static Map<String, String> build(AllocationSpec alloc, TaskGroupSpec group, TaskSpec task, AllocDir dir, String datacenter,
                                            Map<String, String> hostEnv) {
        Map<String, String> node = new LinkedHashMap<>();
        node.put("node.datacenter", datacenter);
        return interpolator(alloc, group, task, dir, node, hostEnv).env();
    }

    /**
     * The task's environment and the node's keys as an {@link Interpolator}. As in Nomad, meta values, host values and task
     * {@code Env} values are themselves interpolated (against the node and the variables set before them).
     *
     * @param nodeAttributes the node's keys ({@link Interpolator#nodeAttributes}); {@code node.datacenter} gives {@code NOMAD_DC}
     */
    public static Interpolator interpolator(AllocationSpec alloc, TaskGroupSpec group, TaskSpec task, AllocDir dir,
                                            Map<String, String> nodeAttributes, Map<String, String> hostEnv) {
        String datacenter = nodeAttributes.getOrDefault("node.datacenter", "");
        Map<String, String> env = new LinkedHashMap<>();
        String id = alloc.id();
        env.put("NOMAD_ALLOC_DIR", dir.sharedDir().toString());
        env.put("NOMAD_TASK_DIR", dir.taskDir(task.name()).resolve("local").toString());
        env.put("NOMAD_SECRETS_DIR", dir.taskDir(task.name()).resolve("secrets").toString());
        if (task.memoryMb() > 0) {
            env.put("NOMAD_MEMORY_LIMIT", Integer.toString(task.memoryMb()));
        }
        if (task.memoryMaxMb() > 0) {
            env.put("NOMAD_MEMORY_MAX_LIMIT", Integer.toString(task.memoryMaxMb()));
        }
        AllocationSpec.AllocatedCpu cpu = alloc.allocatedCpu(task.name());
        long cpuLimit = cpu != null && cpu.cpuShares() > 0 ? cpu.cpuShares() : task.cpu();
        if (cpuLimit > 0) {
            env.put("NOMAD_CPU_LIMIT", Long.toString(cpuLimit));
        }
        if (cpu != null && !cpu.reservedCores().isEmpty()) {
            env.put("NOMAD_CPU_CORES", CoreSet.of(cpu.reservedCores()).toString());
        }
        env.put("NOMAD_ALLOC_ID", id);
        env.put("NOMAD_SHORT_ALLOC_ID", id.length() > 8 ? id.substring(0, 8) : id);
        env.put("NOMAD_ALLOC_NAME", nz(alloc.name()));
        env.put("NOMAD_ALLOC_INDEX", Integer.toString(alloc.allocIndex()));
        env.put("NOMAD_TASK_NAME", task.name());
        env.put("NOMAD_GROUP_NAME", nz(group.name()));
        env.put("NOMAD_JOB_ID", nz(alloc.job().id()));
        env.put("NOMAD_JOB_NAME", nz(alloc.job().name()));
        if (alloc.job().parentId() != null && !alloc.job().parentId().isEmpty()) {
            env.put("NOMAD_JOB_PARENT_ID", alloc.job().parentId());
        }
        env.put("NOMAD_DC", datacenter);
        env.put("NOMAD_NAMESPACE", nz(alloc.namespace()));
        env.put("NOMAD_REGION", alloc.job().region() == null || alloc.job().region().isEmpty() ? "global" : alloc.job().region());
        portEnv(env, group.networks(), true);
        if (task.resources() != null) {
            portEnv(env, task.resources().networks(), false);
        }
        // Task meta: job < group < task, each key both upper-cased and as written.
        Map<String, String> meta = new LinkedHashMap<>();
        if (alloc.job().meta() != null) {
            meta.putAll(alloc.job().meta());
        }
        if (group.meta() != null) {
            meta.putAll(group.meta());
        }
        if (task.meta() != null) {
            meta.putAll(task.meta());
        }
        Interpolator builtins = new Interpolator(env, nodeAttributes);
        meta.forEach((k, v) -> {
            String value = builtins.replace(v);
            env.put(clean("NOMAD_META_" + k.toUpperCase(java.util.Locale.ROOT)), value);
            env.put(clean("NOMAD_META_" + k), value);
        });
        for (String key : HOST_BASICS) {
            String value = hostEnv.get(key);
            if (value != null) {
                env.putIfAbsent(key, value);
            }
        }
        if (task.env() != null) {
            Interpolator before = new Interpolator(env, nodeAttributes);
            task.env().forEach((k, v) -> env.put(k, before.replace(v)));
        }
        return new Interpolator(env, nodeAttributes);
    }

    private static void portEnv(Map<String, String> env, List<NetworkSpec> networks, boolean group) {
        if (networks == null) {
            return;
        }
        for (NetworkSpec net : networks) {
            for (List<NetworkSpec.PortSpec> ports : java.util.Arrays.asList(net.reservedPorts(), net.dynamicPorts())) {
                if (ports == null) {
                    continue;
                }
                for (NetworkSpec.PortSpec p : ports) {
                    if (p.label() == null || p.value() == null) {
                        continue;
                    }
                    String label = p.label();
                    int host = p.value();
                    int mapped = p.to() != null && p.to() > 0 ? p.to() : host;
                    env.put(clean("NOMAD_IP_" + label), HOST_IP);
                    env.put(clean("NOMAD_HOST_PORT_" + label), Integer.toString(host));
                    env.put(clean("NOMAD_ADDR_" + label), HOST_IP + ":" + host);
                    env.put(clean("NOMAD_PORT_" + label), Integer.toString(mapped));
                    if (group) {
                        env.put(clean("NOMAD_HOST_IP_" + label), HOST_IP);
                        env.put(clean("NOMAD_HOST_ADDR_" + label), HOST_IP + ":" + host);
                        env.put(clean("NOMAD_ALLOC_PORT_" + label), Integer.toString(mapped));
                    }
                }
            }
        }
    }

    /** Nomad's {@code helper.CleanEnvVar}: invalid characters become {@code _}. */
    static String clean(String key) {
        return INVALID.matcher(key).replaceAll("_");
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
