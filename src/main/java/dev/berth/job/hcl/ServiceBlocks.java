package dev.berth.job.hcl;

import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps HCL {@code service} blocks (group or task level) and their {@code check} and {@code check_restart} blocks to
 * Nomad's job JSON ({@code Services}, {@code Checks}, {@code CheckRestart}); durations become nanoseconds.
 */
final class ServiceBlocks {

    private static final Map<String, String> SERVICE_TEXT = Map.of("name", "Name", "port", "PortLabel", "provider", "Provider",
            "address_mode", "AddressMode", "task", "TaskName", "address", "Address", "on_update", "OnUpdate");
    private static final Map<String, String> CHECK_TEXT = Map.ofEntries(Map.entry("name", "Name"), Map.entry("type", "Type"),
            Map.entry("path", "Path"), Map.entry("port", "PortLabel"), Map.entry("protocol", "Protocol"), Map.entry("method", "Method"),
            Map.entry("command", "Command"), Map.entry("address_mode", "AddressMode"), Map.entry("initial_status", "InitialStatus"),
            Map.entry("grpc_service", "GRPCService"), Map.entry("task", "TaskName"), Map.entry("body", "Body"),
            Map.entry("on_update", "OnUpdate"));

    private ServiceBlocks() {
    }

    static void map(JsonNode block, ObjectNode target, JsonMapper json) {
        if (!block.has("service")) {
            return;
        }
        ArrayNode out = target.putArray("Services");
        JobspecMapping.each(block.get("service"), s -> {
            ObjectNode o = json.createObjectNode();
            text(s, o, SERVICE_TEXT);
            if (s.has("tags")) {
                o.set("Tags", s.get("tags"));
            }
            if (s.has("check")) {
                ArrayNode checks = o.putArray("Checks");
                JobspecMapping.each(s.get("check"), c -> checks.add(check(c, json)));
            }
            out.add(o);
        });
    }

    private static ObjectNode check(JsonNode c, JsonMapper json) {
        ObjectNode co = json.createObjectNode();
        text(c, co, CHECK_TEXT);
        for (String[] d : new String[][] {{"interval", "Interval"}, {"timeout", "Timeout"}}) {
            if (c.has(d[0])) {
                co.put(d[1], JobspecMapping.nanos(c.get(d[0])));
            }
        }
        for (String[] n : new String[][] {{"success_before_passing", "SuccessBeforePassing"}, {"failures_before_critical", "FailuresBeforeCritical"}}) {
            if (c.has(n[0])) {
                co.put(n[1], c.get(n[0]).asInt());
            }
        }
        for (String[] f : new String[][] {{"grpc_use_tls", "GRPCUseTLS"}, {"tls_skip_verify", "TLSSkipVerify"}}) {
            if (c.has(f[0])) {
                co.put(f[1], c.get(f[0]).asBoolean());
            }
        }
        if (c.has("args")) {
            co.set("Args", c.get("args"));
        }
        if (c.has("header")) {
            ObjectNode h = co.putObject("Header");
            JobspecMapping.each(c.get("header"), hb -> hb.properties().forEach(e -> h.set(e.getKey(), e.getValue().isArray() ? e.getValue()
                    : json.createArrayNode().add(e.getValue().asString()))));
        }
        if (c.has("check_restart")) {
            ObjectNode r = co.putObject("CheckRestart");
            JobspecMapping.each(c.get("check_restart"), cr -> {
                if (cr.has("limit")) {
                    r.put("Limit", cr.get("limit").asInt());
                }
                if (cr.has("grace")) {
                    r.put("Grace", JobspecMapping.nanos(cr.get("grace")));
                }
                if (cr.has("ignore_warnings")) {
                    r.put("IgnoreWarnings", cr.get("ignore_warnings").asBoolean());
                }
            });
        }
        return co;
    }

    private static void text(JsonNode from, ObjectNode to, Map<String, String> names) {
        names.forEach((hcl, field) -> {
            if (from.has(hcl)) {
                JsonNode v = from.path(hcl);
                // HCL numbers arrive as doubles: a port label 8080 must stay "8080"
                to.put(field, v.isNumber() ? JobspecMapping.number(v) : v.asString());
            }
        });
    }
}
