package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;

import dev.berth.device.DeviceRequest;

/**
 * The input checks every submitted allocation passes before anything is stored: no {@code null} inside a list,
 * no NUL byte anywhere (no path, argv entry or environment variable can hold one), no control character in a name or ID,
 * no nesting deeper than {@value #MAX_DEPTH} levels in free-form maps (driver config, meta), names that are valid task and
 * group names, and no negative or absurd duration or size. The first problem is reported with the JSON path of the field,
 * lists by index ({@code Job.TaskGroups[0].Tasks[1].Config.args[2]}).
 */
final class SpecInputChecks {

    /** Longer than any sensible restart interval, delay or kill timeout, short enough that no arithmetic on it overflows. */
    static final long MAX_DURATION_NANOS = 10L * 366 * 24 * 3600 * 1_000_000_000L;
    static final int MAX_DEPTH = 32;
    static final int MAX_NAME = 200;
    static final long MAX_SIZE_MB = 64L * 1024 * 1024;
    static final int MAX_LOG_FILES = 10_000;

    private SpecInputChecks() {
    }

    static void check(AllocationSpec spec) throws SpecValidationException {
        text("ID", spec.id());
        text("Name", spec.name());
        text("Namespace", spec.namespace());
        text("JobID", spec.jobId());
        text("TaskGroup", spec.taskGroup());
        text("DesiredStatus", spec.desiredStatus());
        text("PreviousAllocation", spec.previousAllocation());
        JobSpec job = spec.job();
        if (job != null) {
            text("Job.ID", job.id());
            text("Job.Name", job.name());
            text("Job.Type", job.type());
            text("Job.Namespace", job.namespace());
            text("Job.Region", job.region());
            text("Job.ParentID", job.parentId());
            free("Job.Meta", job.meta(), 0);
            List<TaskGroupSpec> groups = job.taskGroups();
            for (int i = 0; groups != null && i < groups.size(); i++) {
                group("Job.TaskGroups[" + i + "]", groups.get(i));
            }
        }
        if (spec.allocatedResources() != null) {
            free("AllocatedResources", spec.allocatedResources().tasks(), 0);
            if (spec.allocatedResources().shared() != null) {
                networks("AllocatedResources.Shared.Networks", spec.allocatedResources().shared().networks());
                notNullElements("AllocatedResources.Shared.Ports", spec.allocatedResources().shared().ports());
            }
        }
    }

    private static void group(String path, TaskGroupSpec g) throws SpecValidationException {
        if (g == null) {
            throw new SpecValidationException(path, path + " must not be null");
        }
        if (g.name() == null || g.name().isBlank()) {
            throw new SpecValidationException(path + ".Name", "Missing task group name");
        }
        name(path + ".Name", g.name(), "Task group");
        if (g.count() != null && g.count() < 0) {
            throw new SpecValidationException(path + ".Count", "Task group count must not be negative; got " + g.count());
        }
        free(path + ".Meta", g.meta(), 0);
        free(path + ".EphemeralDisk", g.ephemeralDisk(), 0);
        policy(path + ".RestartPolicy", g.restartPolicy());
        networks(path + ".Networks", g.networks());
        List<TaskSpec> tasks = g.tasks();
        for (int i = 0; tasks != null && i < tasks.size(); i++) {
            task(path + ".Tasks[" + i + "]", tasks.get(i));
        }
    }

    private static void task(String path, TaskSpec t) throws SpecValidationException {
        if (t == null) {
            throw new SpecValidationException(path, path + " must not be null");
        }
        if (t.name() != null) {
            name(path + ".Name", t.name(), "Task");
        }
        text(path + ".Driver", t.driver());
        text(path + ".KillSignal", t.killSignal());
        free(path + ".Config", t.config(), 0);
        free(path + ".Env", t.env(), 0);
        if (t.env() != null) {
            for (String key : t.env().keySet()) {
                if (key.isEmpty() || key.indexOf('=') >= 0) {
                    throw new SpecValidationException(path + ".Env", "Invalid environment variable name \"" + key + "\"");
                }
            }
        }
        free(path + ".Meta", t.meta(), 0);
        free(path + ".LogConfig", t.logConfig(), 0);
        logConfig(path + ".LogConfig", t.logConfig());
        duration(path + ".KillTimeout", t.killTimeout());
        policy(path + ".RestartPolicy", t.restartPolicy());
        if (t.lifecycle() != null) {
            text(path + ".Lifecycle.Hook", t.lifecycle().hook());
        }
        ResourcesSpec r = t.resources();
        if (r != null) {
            size(path + ".Resources.MemoryMaxMB", r.memoryMaxMb());
            size(path + ".Resources.SecretsMB", r.secretsMb());
            size(path + ".Resources.MemoryMB", r.memoryMb());
            if (r.cores() != null && r.cores() < 0) {
                throw new SpecValidationException(path + ".Resources.Cores", "cores value (" + r.cores() + ") cannot be negative");
            }
            if (r.cores() != null && r.cores() > 0 && r.cpu() != null && r.cpu() > 0) {
                throw new SpecValidationException(path + ".Resources", "Task can only ask for 'cpu' or 'cores' resource, not both.");
            }
            networks(path + ".Resources.Networks", r.networks());
            List<DeviceRequest> devices = r.devices();
            for (int i = 0; devices != null && i < devices.size(); i++) {
                String d = path + ".Resources.Devices[" + i + "]";
                if (devices.get(i) == null) {
                    throw new SpecValidationException(d, d + " must not be null");
                }
                text(d + ".Name", devices.get(i).name());
                if (devices.get(i).count() != null && devices.get(i).count() < 0) {
                    throw new SpecValidationException(d + ".Count", "Device count must not be negative");
                }
            }
        }
    }

    private static void policy(String path, RestartPolicySpec p) throws SpecValidationException {
        if (p == null) {
            return;
        }
        duration(path + ".Interval", p.interval());
        duration(path + ".Delay", p.delay());
        text(path + ".Mode", p.mode());
        if (p.attempts() != null && p.attempts() < 0) {
            throw new SpecValidationException(path + ".Attempts", "Restart attempts must not be negative (got " + p.attempts() + ")");
        }
    }

    private static void logConfig(String path, Map<String, Object> logConfig) throws SpecValidationException {
        if (logConfig == null) {
            return;
        }
        for (String key : List.of("MaxFiles", "MaxFileSizeMB")) {
            Object v = logConfig.get(key);
            if (v == null) {
                continue;
            }
            if (!(v instanceof Integer || v instanceof Long)) {
                throw new SpecValidationException(path + "." + key, key + " must be an integer; got " + v);
            }
            long n = ((Number) v).longValue();
            long max = key.equals("MaxFiles") ? MAX_LOG_FILES : MAX_SIZE_MB;
            if (n > max) {
                throw new SpecValidationException(path + "." + key, key + " must be at most " + max + "; got " + n);
            }
        }
    }

    private static void networks(String path, List<NetworkSpec> networks) throws SpecValidationException {
        for (int i = 0; networks != null && i < networks.size(); i++) {
            String n = path + "[" + i + "]";
            NetworkSpec net = networks.get(i);
            if (net == null) {
                throw new SpecValidationException(n, n + " must not be null");
            }
            text(n + ".Mode", net.mode());
            text(n + ".IP", net.ip());
            ports(n + ".ReservedPorts", net.reservedPorts());
            ports(n + ".DynamicPorts", net.dynamicPorts());
        }
    }

    private static void ports(String path, List<NetworkSpec.PortSpec> ports) throws SpecValidationException {
        for (int i = 0; ports != null && i < ports.size(); i++) {
            String p = path + "[" + i + "]";
            NetworkSpec.PortSpec port = ports.get(i);
            if (port == null) {
                throw new SpecValidationException(p, p + " must not be null");
            }
            text(p + ".Label", port.label());
            if (port.to() != null && (port.to() < -1 || port.to() > 65535)) {
                throw new SpecValidationException(p + ".To", "Port mapping must be -1..65535, was " + port.to());
            }
            if (port.value() != null && (port.value() < 0 || port.value() > 65535)) {
                throw new SpecValidationException(p + ".Value", "Port must be 0..65535, was " + port.value());
            }
        }
    }

    private static void notNullElements(String path, List<?> list) throws SpecValidationException {
        for (int i = 0; list != null && i < list.size(); i++) {
            if (list.get(i) == null) {
                throw new SpecValidationException(path + "[" + i + "]", path + "[" + i + "] must not be null");
            }
        }
    }

    private static void duration(String path, Long nanos) throws SpecValidationException {
        if (nanos != null && (nanos < 0 || nanos > MAX_DURATION_NANOS)) {
            throw new SpecValidationException(path, path.substring(path.lastIndexOf('.') + 1)
                    + " must be between 0 and 10 years (in nanoseconds); got " + nanos);
        }
    }

    private static void size(String path, Integer mb) throws SpecValidationException {
        if (mb != null && (mb < 0 || mb > MAX_SIZE_MB)) {
            throw new SpecValidationException(path, path.substring(path.lastIndexOf('.') + 1) + " must be between 0 and "
                    + MAX_SIZE_MB + "; got " + mb);
        }
    }

    /** A task or group name: printable, no path separator, at most {@value #MAX_NAME} characters. */
    private static void name(String path, String name, String what) throws SpecValidationException {
        text(path, name);
        if (name.length() > MAX_NAME || name.indexOf('/') >= 0 || name.indexOf('\\') >= 0 || name.isBlank()) {
            throw new SpecValidationException(path, what + " name \"" + name + "\" is not valid: 1-" + MAX_NAME
                    + " characters, no slash");
        }
    }

    /** A name, ID or keyword: no control character (NUL included). */
    private static void text(String path, String s) throws SpecValidationException {
        if (s == null) {
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw new SpecValidationException(path, path + " contains a control character (U+"
                        + String.format("%04X", (int) s.charAt(i)) + ") at index " + i);
            }
        }
    }

    /** Free-form values (driver config, env, meta): no NUL in any key or string, no null value, bounded depth. */
    private static void free(String path, Object value, int depth) throws SpecValidationException {
        if (depth > MAX_DEPTH) {
            throw new SpecValidationException(path, "nested deeper than " + MAX_DEPTH + " levels");
        }
        switch (value) {
            case null -> {
            }
            case String s -> {
                if (s.indexOf('\0') >= 0) {
                    throw new SpecValidationException(path, path + " contains a NUL character at index " + s.indexOf('\0'));
                }
            }
            case Map<?, ?> m -> {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    if (key.indexOf('\0') >= 0) {
                        throw new SpecValidationException(path, "a key of " + path + " contains a NUL character");
                    }
                    if (e.getValue() == null) {
                        // an env/meta value cannot be null, and a driver config key set to null is a typo of "unset"
                        throw new SpecValidationException(path + "." + key, path + "." + key + " must not be null (leave the key out)");
                    }
                    free(path + "." + key, e.getValue(), depth + 1);
                }
            }
            case List<?> l -> {
                for (int i = 0; i < l.size(); i++) {
                    if (l.get(i) == null) {
                        throw new SpecValidationException(path + "[" + i + "]", path + "[" + i + "] must not be null");
                    }
                    free(path + "[" + i + "]", l.get(i), depth + 1);
                }
            }
            case Record r -> free(path, recordValues(r), depth);
            default -> {
            }
        }
    }

    /** The components of a record (allocated resources) as a map, to walk them like free-form values. */
    private static Map<String, Object> recordValues(Record r) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (var c : r.getClass().getRecordComponents()) {
            try {
                Object v = c.getAccessor().invoke(r);
                if (v != null) {
                    // an absent component (Nomad's JSON writes "Networks": null) is not a null inside a free-form map
                    m.put(c.getName(), v);
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return m;
    }
}
