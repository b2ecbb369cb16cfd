package dev.berth.job.hcl;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A task's {@code template} blocks as Nomad's {@code Templates} JSON: {@code data} → {@code EmbeddedTmpl},
 * {@code source} → {@code SourcePath}, {@code destination} → {@code DestPath}, {@code change_mode},
 * {@code change_signal}, {@code change_script {}} → {@code ChangeScript}, {@code splay} (nanoseconds), {@code perms},
 * {@code uid}, {@code gid}, {@code left_delimiter}/{@code right_delimiter} → {@code LeftDelim}/{@code RightDelim},
 * {@code env} → {@code Envvars}, {@code error_on_missing_key} → {@code ErrMissingKey}, {@code wait {min max}} →
 * {@code Wait}. Defaults are left to the spec, as Nomad's API fills them on submission.
 */
final class TemplateBlocks {

    private TemplateBlocks() {
    }

    static void map(JsonNode task, ObjectNode target, JsonMapper json) {
        if (!task.has("template")) {
            return;
        }
        ArrayNode list = target.putArray("Templates");
        JobspecMapping.each(task.get("template"), t -> list.add(template(t, json)));
    }

    private static ObjectNode template(JsonNode t, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        text(t, "data", o, "EmbeddedTmpl");
        text(t, "source", o, "SourcePath");
        text(t, "destination", o, "DestPath");
        text(t, "change_mode", o, "ChangeMode");
        text(t, "change_signal", o, "ChangeSignal");
        text(t, "perms", o, "Perms");
        text(t, "left_delimiter", o, "LeftDelim");
        text(t, "right_delimiter", o, "RightDelim");
        if (t.has("splay")) {
            o.put("Splay", JobspecMapping.nanos(t.get("splay")));
        }
        if (t.has("uid")) {
            o.put("Uid", t.get("uid").asInt());
        }
        if (t.has("gid")) {
            o.put("Gid", t.get("gid").asInt());
        }
        if (t.has("env")) {
            o.put("Envvars", t.get("env").asBoolean(false));
        }
        if (t.has("error_on_missing_key")) {
            o.put("ErrMissingKey", t.get("error_on_missing_key").asBoolean(false));
        }
        if (t.has("wait")) {
            ObjectNode wait = o.putObject("Wait");
            JobspecMapping.each(t.get("wait"), w -> {
                if (w.has("min")) {
                    wait.put("Min", JobspecMapping.nanos(w.get("min")));
                }
                if (w.has("max")) {
                    wait.put("Max", JobspecMapping.nanos(w.get("max")));
                }
            });
        }
        if (t.has("change_script")) {
            ObjectNode script = o.putObject("ChangeScript");
            JobspecMapping.each(t.get("change_script"), s -> {
                script.put("Command", s.path("command").asString(""));
                script.set("Args", s.has("args") ? s.get("args") : json.createArrayNode());
                if (s.has("timeout")) {
                    script.put("Timeout", JobspecMapping.nanos(s.get("timeout")));
                }
                script.put("FailOnError", s.path("fail_on_error").asBoolean(false));
            });
        }
        return o;
    }

    private static void text(JsonNode from, String arg, ObjectNode to, String field) {
        JsonNode v = from.get(arg);
        if (v != null && !v.isNull()) {
            to.put(field, v.isNumber() ? JobspecMapping.number(v) : v.asString());
        }
    }
}
