package dev.berth.job.hcl;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiConsumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.driver.GoDuration;

/** Maps the parsed HCL blocks to Nomad's job JSON field names; durations become nanoseconds. */
final class JobspecMapping {

    private JobspecMapping() {
    }

    static ObjectNode job(String id, ObjectNode b, JsonMapper json) {
        ObjectNode j = json.createObjectNode();
        j.put("ID", id);
        j.put("Name", b.path("name").asString(id));
        copyText(b, j, Map.of("type", "Type", "region", "Region", "namespace", "Namespace", "node_pool", "NodePool"));
        if (b.has("priority")) {
            j.put("Priority", b.path("priority").asInt());
        }
        if (b.has("datacenters")) {
            j.set("Datacenters", b.get("datacenters"));
        }
        meta(b, j);
        constraints(b, j, json);
        if (b.has("update")) {
            j.set("Update", UpdateBlocks.update(first(b.get("update")), json));
        }
        if (b.has("migrate")) {
            j.set("Migrate", UpdateBlocks.update(first(b.get("migrate")), json));
        }
        if (b.has("reschedule")) {
            j.set("Reschedule", reschedule(first(b.get("reschedule")), json));
        }
        if (b.has("periodic")) {
            JsonNode p = first(b.get("periodic"));
            ObjectNode o = j.putObject("Periodic");
            o.put("Enabled", p.path("enabled").asBoolean(true));
            if (p.has("cron")) {
                o.put("Spec", p.path("cron").asString());
            }
            if (p.has("crons")) {
                o.set("Specs", p.get("crons"));
            }
            o.put("SpecType", "cron");
            o.put("ProhibitOverlap", p.path("prohibit_overlap").asBoolean(false));
            o.put("TimeZone", p.path("time_zone").asString("UTC"));
        }
        if (b.has("parameterized")) {
            JsonNode p = first(b.get("parameterized"));
            ObjectNode o = j.putObject("ParameterizedJob");
            o.put("Payload", p.path("payload").asString("optional"));
            o.set("MetaRequired", p.has("meta_required") ? p.get("meta_required") : json.nullNode());
            o.set("MetaOptional", p.has("meta_optional") ? p.get("meta_optional") : json.nullNode());
        }
        ArrayNode groups = j.putArray("TaskGroups");
        // a task written in the job directly is a group of its own name, placed before the declared groups (as Nomad's parser does)
        labelled(b.get("task"), (name, t) -> groups.addObject().put("Name", name).putArray("Tasks").add(task(name, (ObjectNode) t, json)));
        labelled(b.get("group"), (name, g) -> groups.add(group(name, (ObjectNode) g, json)));
        return j;
    }

    private static ObjectNode group(String name, ObjectNode b, JsonMapper json) {
        ObjectNode g = json.createObjectNode();
        g.put("Name", name);
        if (b.has("count")) {
            g.put("Count", b.path("count").asInt());
        }
        meta(b, g);
        constraints(b, g, json);
        if (b.has("restart")) {
            g.set("RestartPolicy", restart(first(b.get("restart")), json));
        }
        if (b.has("reschedule")) {
            g.set("ReschedulePolicy", reschedule(first(b.get("reschedule")), json));
        }
        if (b.has("update")) {
            g.set("Update", UpdateBlocks.update(first(b.get("update")), json));
        }
        if (b.has("migrate")) {
            g.set("Migrate", UpdateBlocks.update(first(b.get("migrate")), json));
        }
        if (b.has("ephemeral_disk")) {
            JsonNode d = first(b.get("ephemeral_disk"));
            ObjectNode o = g.putObject("EphemeralDisk");
            o.put("Sticky", d.path("sticky").asBoolean(false));
            o.put("Migrate", d.path("migrate").asBoolean(false));
            o.put("SizeMB", d.path("size").asInt(300));
        }
        if (b.has("network")) {
            ArrayNode nets = g.putArray("Networks");
            each(b.get("network"), n -> nets.add(network(n, json)));
        }
        services(b, g, json);
        VolumeBlocks.volumes(b, g);
        ArrayNode tasks = g.putArray("Tasks");
        labelled(b.get("task"), (tn, t) -> tasks.add(task(tn, (ObjectNode) t, json)));
        return g;
    }

    private static ObjectNode task(String name, ObjectNode b, JsonMapper json) {
        ObjectNode t = json.createObjectNode();
        t.put("Name", name);
        copyText(b, t, Map.of("driver", "Driver", "user", "User", "kill_signal", "KillSignal"));
        if (b.has("config")) {
            t.set("Config", numbers(first(b.get("config"))));
        }
        if (b.has("env")) {
            t.set("Env", strings(first(b.get("env")), json));
        }
        if (b.has("leader")) {
            t.put("Leader", b.path("leader").asBoolean());
        }
        if (b.has("kill_timeout")) {
            t.put("KillTimeout", nanos(b.get("kill_timeout")));
        }
        if (b.has("shutdown_delay")) {
            t.put("ShutdownDelay", nanos(b.get("shutdown_delay")));
        }
        if (b.has("resources")) {
            JsonNode r = first(b.get("resources"));
            ObjectNode o = t.putObject("Resources");
            if (r.has("cpu")) {
                o.put("CPU", r.path("cpu").asInt());
            }
            if (r.has("cores")) {
                o.put("Cores", r.path("cores").asInt());
            }
            if (r.has("memory")) {
                o.put("MemoryMB", r.path("memory").asInt());
            }
            if (r.has("memory_max")) {
                o.put("MemoryMaxMB", r.path("memory_max").asInt());
            }
        }
        if (b.has("restart")) {
            t.set("RestartPolicy", restart(first(b.get("restart")), json));
        }
        if (b.has("lifecycle")) {
            JsonNode l = first(b.get("lifecycle"));
            t.putObject("Lifecycle").put("Hook", l.path("hook").asString("")).put("Sidecar", l.path("sidecar").asBoolean(false));
        }
        if (b.has("logs")) {
            JsonNode l = first(b.get("logs"));
            t.putObject("LogConfig").put("MaxFiles", l.path("max_files").asInt(10)).put("MaxFileSizeMB", l.path("max_file_size").asInt(10))
                    .put("Disabled", l.path("disabled").asBoolean(false));
        }
        if (b.has("dispatch_payload")) {
            t.putObject("DispatchPayload").put("File", first(b.get("dispatch_payload")).path("file").asString(""));
        }
        meta(b, t);
        constraints(b, t, json);
        services(b, t, json);
        ArtifactBlocks.map(b, t, json);
        TemplateBlocks.map(b, t, json);
        if (b.has("action")) {
            ArrayNode actions = t.putArray("Actions");
            labelled(b.get("action"), (an, a) -> {
                ObjectNode o = actions.addObject().put("Name", an).put("Command", a.path("command").asString(""));
                o.set("Args", a.has("args") ? a.get("args") : json.nullNode());
            });
        }
        VolumeBlocks.mounts(b, t, json);
        return t;
    }

    private static ObjectNode network(JsonNode n, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        if (n.has("mode")) {
            o.put("Mode", n.path("mode").asString());
        }
        ArrayNode reserved = json.createArrayNode();
        ArrayNode dynamic = json.createArrayNode();
        labelled(n.get("port"), (label, p) -> {
            ObjectNode port = json.createObjectNode().put("Label", label);
            if (p.has("to")) {
                port.put("To", p.path("to").asInt());
            }
            if (p.has("host_network")) {
                port.put("HostNetwork", p.path("host_network").asString());
            }
            if (p.has("static")) {
                port.put("Value", p.path("static").asInt());
                reserved.add(port);
            } else {
                dynamic.add(port);
            }
        });
        o.set("ReservedPorts", reserved.isEmpty() ? json.nullNode() : reserved);
        o.set("DynamicPorts", dynamic.isEmpty() ? json.nullNode() : dynamic);
        return o;
    }

    private static void services(JsonNode b, ObjectNode target, JsonMapper json) {
        ServiceBlocks.map(b, target, json);
    }

    private static ObjectNode restart(JsonNode r, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        if (r.has("attempts")) {
            o.put("Attempts", r.path("attempts").asInt());
        }
        if (r.has("interval")) {
            o.put("Interval", nanos(r.get("interval")));
        }
        if (r.has("delay")) {
            o.put("Delay", nanos(r.get("delay")));
        }
        if (r.has("mode")) {
            o.put("Mode", r.path("mode").asString());
        }
        RestartExitRules.map(r, o);
        return o;
    }

    private static ObjectNode reschedule(JsonNode r, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        if (r.has("attempts")) {
            o.put("Attempts", r.path("attempts").asInt());
        }
        for (String[] d : new String[][] {{"interval", "Interval"}, {"delay", "Delay"}, {"max_delay", "MaxDelay"}}) {
            if (r.has(d[0])) {
                o.put(d[1], nanos(r.get(d[0])));
            }
        }
        if (r.has("delay_function")) {
            o.put("DelayFunction", r.path("delay_function").asString());
        }
        if (r.has("unlimited")) {
            o.put("Unlimited", r.path("unlimited").asBoolean());
        }
        return o;
    }

    private static void meta(JsonNode b, ObjectNode target) {
        if (b.has("meta")) {
            ObjectNode m = target.putObject("Meta");
            first(b.get("meta")).properties().forEach(e -> m.put(e.getKey(), e.getValue().isNumber() ? number(e.getValue()) : e.getValue().asString()));
        }
    }

    private static void constraints(JsonNode b, ObjectNode target, JsonMapper json) {
        ConstraintBlocks.map(b, target, json);
    }

    /** A Go duration ({@code "15s"}, {@code "1h30m"}, {@code "250ms"}; {@link GoDuration}) or a number of nanoseconds. */
    static long nanos(JsonNode v) {
        if (v.isNumber()) {
            return v.asLong();
        }
        return GoDuration.parse(v.asString().trim()).toNanos();
    }

    static Duration duration(JsonNode v) {
        return Duration.ofNanos(nanos(v));
    }

    static String number(JsonNode n) {
        double d = n.asDouble();
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** hcl4j reads every number as a double; whole numbers become integers as in Nomad's JSON. */
    private static JsonNode numbers(JsonNode n) {
        if (n instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                o.set(e.getKey(), numbers(e.getValue()));
            }
            return o;
        }
        if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, numbers(a.get(i)));
            }
            return a;
        }
        if (n.isFloatingPointNumber() && n.asDouble() == Math.rint(n.asDouble())) {
            return tools.jackson.databind.node.JsonNodeFactory.instance.numberNode(n.asLong());
        }
        return n;
    }

    private static ObjectNode strings(JsonNode n, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        n.properties().forEach(e -> o.put(e.getKey(), e.getValue().isNumber() ? number(e.getValue()) : e.getValue().asString()));
        return o;
    }

    private static JsonNode first(JsonNode n) {
        return n.isArray() ? n.path(0) : n;
    }

    static void each(JsonNode n, java.util.function.Consumer<JsonNode> f) {
        if (n == null) {
            return;
        }
        if (n.isArray()) {
            n.forEach(f);
        } else {
            f.accept(n);
        }
    }

    /** Labelled blocks ({@code task "a" {}}) come as an object keyed by label (a list when hcl4j saw repeats). */
    private static void labelled(JsonNode n, BiConsumer<String, JsonNode> f) {
        each(n, block -> block.properties().forEach(e -> f.accept(e.getKey(), e.getValue())));
    }

    private static void copyText(JsonNode from, ObjectNode to, Map<String, String> names) {
        names.forEach((hcl, field) -> {
            if (from.has(hcl)) {
                to.put(field, from.path(hcl).isNumber() ? number(from.get(hcl)) : from.path(hcl).asString());
            }
        });
    }
}
