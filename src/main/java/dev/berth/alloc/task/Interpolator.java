package dev.berth.alloc.task;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.berth.fingerprint.Node;

/**
 * Nomad's runtime interpolation (its {@code taskenv}): {@code ${NOMAD_PORT_http}}, {@code ${NOMAD_ALLOC_ID}} and every other
 * variable of the task's environment, {@code ${attr.<key>}}, {@code ${meta.<key>}}, {@code ${node.unique.id}},
 * {@code ${node.unique.name}}, {@code ${node.datacenter}}, {@code ${node.class}}, {@code ${node.pool}},
 * {@code ${node.region}}, {@code ${node.attr.<key>}}, {@code ${node.meta.<key>}} and {@code ${env["<VAR>"]}}.
 *
 * <p>A reference Nomad cannot resolve stays as written (Nomad's {@code ReplaceEnv} returns the original text). The task
 * environment wins over node attributes, as in Nomad. Immutable and thread-safe.
 *
 * <p>Used for task {@code Config} (every string, nested in maps and lists), {@code Env}, service and check fields and
 * constraint targets.
 */
public final class Interpolator {

    /** {@code ${name}} with Nomad's name characters, or HCL2's {@code ${env["ANY KEY"]}} index into the environment. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(?:\\s*env\\s*\\[\\s*\"([^\"]*)\"\\s*]\\s*|([a-zA-Z0-9_\\-.]+))}");

    private final Map<String, String> env;
    private final Map<String, String> node;

    /**
     * @param env            the task's environment ({@code NOMAD_*}, meta, task {@code Env}, hook envs)
     * @param nodeAttributes node keys as {@link #nodeAttributes} builds them ({@code attr.*}, {@code meta.*}, {@code node.*})
     */
    public Interpolator(Map<String, String> env, Map<String, String> nodeAttributes) {
        this.env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
        this.node = nodeAttributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(nodeAttributes));
    }

    /** Node keys only (constraint targets are interpolated before any task environment exists). */
    public static Interpolator forNode(Map<String, String> nodeAttributes) {
        return new Interpolator(Map.of(), nodeAttributes);
    }

    /**
     * The node's interpolation keys as Nomad's task environment builder sets them: {@code node.unique.id},
     * {@code node.unique.name}, {@code node.class}, {@code node.datacenter}, {@code node.pool}, {@code node.region},
     * {@code attr.<key>} and {@code meta.<key>}.
     */
    public static Map<String, String> nodeAttributes(Node n, String region) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("node.unique.id", nz(n.id()));
        m.put("node.unique.name", nz(n.name()));
        m.put("node.class", nz(n.nodeClass()));
        m.put("node.datacenter", nz(n.datacenter()));
        m.put("node.pool", "default");
        m.put("node.region", region == null || region.isEmpty() ? "global" : region);
        if (n.attributes() != null) {
            n.attributes().forEach((k, v) -> m.put("attr." + k, v));
        }
        if (n.meta() != null) {
            n.meta().forEach((k, v) -> m.put("meta." + k, v));
        }
        return m;
    }

    /** The task environment this interpolator resolves from. */
    public Map<String, String> env() {
        return env;
    }

    /** The node keys this interpolator resolves from. */
    public Map<String, String> nodeAttributes() {
        return node;
    }

    /** A copy that resolves from {@code newEnv} instead (e.g. after hooks added variables); the node keys stay. */
    public Interpolator withEnv(Map<String, String> newEnv) {
        return new Interpolator(newEnv, node);
    }

    /** Replaces every reference this interpolator knows in {@code s}; unknown ones stay as written. Null stays null. */
    public String replace(String s) {
        if (s == null || s.indexOf("${") < 0) {
            return s;
        }
        Matcher m = REFERENCE.matcher(s);
        StringBuilder out = new StringBuilder(s.length());
        while (m.find()) {
            String value = m.group(1) != null ? env.get(m.group(1)) : lookup(m.group(2));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Replaces in every string of a JSON-like tree (maps, lists, strings); map keys stay, other values pass through. */
    public Object replaceDeep(Object value) {
        if (value instanceof String s) {
            return replace(s);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>(map.size() * 2);
            map.forEach((k, v) -> out.put(k, replaceDeep(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(replaceDeep(v)));
            return out;
        }
        return value;
    }

    /** A task {@code Config}, every string replaced at any depth; null stays null. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> replaceConfig(Map<String, Object> config) {
        return config == null ? null : (Map<String, Object>) replaceDeep(config);
    }

    /** A string map (Env, meta, tags by key) with every value replaced; null stays null. */
    public Map<String, String> replaceValues(Map<String, String> values) {
        if (values == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>(values.size() * 2);
        values.forEach((k, v) -> out.put(k, replace(v)));
        return out;
    }

    /** Each string replaced; null stays null. */
    public List<String> replaceAll(List<String> values) {
        return values == null ? null : values.stream().map(this::replace).toList();
    }

    private String lookup(String key) {
        String v = env.get(key);
        if (v != null) {
            return v;
        }
        v = node.get(key);
        if (v != null) {
            return v;
        }
        // HCL2's task-config context also nests attr and meta under node.
        if (key.startsWith("node.attr.")) {
            return node.get(key.substring("node.".length()));
        }
        if (key.startsWith("node.meta.")) {
            return node.get(key.substring("node.".length()));
        }
        return null;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
