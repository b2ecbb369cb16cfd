package dev.berth.job;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Nomad's {@code api.Job.Canonicalize}: the defaults a job gets before it is registered or when {@code /v1/jobs/parse} is
 * asked to canonicalize. Durations are nanoseconds. Works on Nomad's job JSON in place.
 */
public final class JobDefaults {

    static final long SECOND = 1_000_000_000L;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JobDefaults() {
    }

    /** Fills Nomad's defaults into {@code job} (and returns it). */
    public static ObjectNode canonicalize(ObjectNode job) {
        text(job, "ID", "");
        text(job, "Name", job.path("ID").asString(""));
        text(job, "ParentID", "");
        text(job, "Namespace", "default");
        num(job, "Priority", 50);
        bool(job, "Stop", false);
        text(job, "Region", "global");
        text(job, "NodePool", "");
        text(job, "Type", "service");
        bool(job, "AllAtOnce", false);
        text(job, "ConsulNamespace", "");
        text(job, "VaultNamespace", "");
        text(job, "NomadTokenID", "");
        text(job, "Status", "");
        text(job, "StatusDescription", "");
        bool(job, "Stable", false);
        num(job, "Version", 0);
        num(job, "CreateIndex", 0);
        num(job, "ModifyIndex", 0);
        num(job, "JobModifyIndex", 0);
        String type = job.path("Type").asString();
        if (job.get("Periodic") instanceof ObjectNode p) {
            bool(p, "Enabled", true);
            text(p, "SpecType", "cron");
            bool(p, "ProhibitOverlap", false);
            text(p, "TimeZone", "UTC");
        }
        if (job.get("Update") instanceof ObjectNode u) {
            update(u);
        } else if ("service".equals(type) || "system".equals(type)) {
            job.set("Update", update(F.objectNode()));
        }
        if (job.get("ParameterizedJob") instanceof ObjectNode pj) {
            text(pj, "Payload", "optional");
        }
        if (job.get("TaskGroups") instanceof ArrayNode groups) {
            for (JsonNode g : groups) {
                if (g instanceof ObjectNode group) {
                    group(group, job, type);
                }
            }
        }
        return job;
    }

    /**
     * What a Nomad server sets when it admits a job, over what the API's canonicalize leaves empty: {@code NodePool}
     * {@code "default"} (every registered job is in a node pool; this node is in the default one). Returns {@code job}.
     */
    public static ObjectNode admit(ObjectNode job) {
        if (job.path("NodePool").asString("").isEmpty()) {
            job.put("NodePool", "default");
        }
        return job;
    }

    static ObjectNode update(ObjectNode u) {
        num(u, "Stagger", 30 * SECOND);
        num(u, "MaxParallel", 1);
        text(u, "HealthCheck", "checks");
        num(u, "MinHealthyTime", 10 * SECOND);
        num(u, "HealthyDeadline", 300 * SECOND);
        num(u, "ProgressDeadline", 600 * SECOND);
        bool(u, "AutoRevert", false);
        num(u, "Canary", 0);
        bool(u, "AutoPromote", false);
        return u;
    }

    private static void group(ObjectNode g, ObjectNode job, String type) {
        text(g, "Name", "");
        if (!g.hasNonNull("Count")) {
            g.put("Count", g.path("Scaling").path("Min").isNumber() ? g.path("Scaling").path("Min").asInt() : 1);
        }
        if (g.get("EphemeralDisk") instanceof ObjectNode d) {
            bool(d, "Sticky", false);
            bool(d, "Migrate", false);
            num(d, "SizeMB", 300);
        } else {
            g.set("EphemeralDisk", F.objectNode().put("Sticky", false).put("Migrate", false).put("SizeMB", 300));
        }
        if (job.get("Update") instanceof ObjectNode ju) {
            ObjectNode merged = ju.deepCopy();
            if (g.get("Update") instanceof ObjectNode gu) {
                merged.setAll(nonNull(gu));
            }
            g.set("Update", update(merged));
        } else if (g.get("Update") instanceof ObjectNode gu) {
            update(gu);
        }
        ObjectNode resched = job.get("Reschedule") instanceof ObjectNode jr ? jr.deepCopy() : null;
        if (g.get("ReschedulePolicy") instanceof ObjectNode gr) {
            resched = resched == null ? gr : (ObjectNode) resched.setAll(nonNull(gr));
        }
        if (resched == null) {
            resched = F.objectNode();
            if (!"system".equals(type) && !"sysbatch".equals(type)) {
                defaultReschedule(resched, type);
            }
        }
        defaultReschedule(resched, "other");
        g.set("ReschedulePolicy", resched);
        if (job.get("Migrate") instanceof ObjectNode jm || g.get("Migrate") instanceof ObjectNode || "service".equals(type)) {
            ObjectNode m = job.get("Migrate") instanceof ObjectNode jm2 ? jm2.deepCopy() : F.objectNode();
            if (g.get("Migrate") instanceof ObjectNode gm) {
                m.setAll(nonNull(gm));
            }
            num(m, "MaxParallel", 1);
            text(m, "HealthCheck", "checks");
            num(m, "MinHealthyTime", 10 * SECOND);
            num(m, "HealthyDeadline", 300 * SECOND);
            g.set("Migrate", m);
        }
        boolean service = "service".equals(type) || "system".equals(type);
        ObjectNode restart = F.objectNode().put("Delay", 15 * SECOND).put("Attempts", service ? 2 : 3)
                .put("Interval", (service ? 1800L : 86400L) * SECOND).put("Mode", "fail").put("RenderTemplates", false);
        if (g.get("RestartPolicy") instanceof ObjectNode gr) {
            restart.setAll(nonNull(gr));
        }
        g.set("RestartPolicy", restart);
        if (g.get("Tasks") instanceof ArrayNode tasks) {
            for (JsonNode t : tasks) {
                if (t instanceof ObjectNode task) {
                    task(task, restart);
                }
            }
        }
    }

    private static void defaultReschedule(ObjectNode r, String type) {
        switch (type) {
            case "service" -> {
                num(r, "Delay", 30 * SECOND);
                text(r, "DelayFunction", "exponential");
                num(r, "MaxDelay", 3600 * SECOND);
                bool(r, "Unlimited", true);
                num(r, "Attempts", 0);
                num(r, "Interval", 0);
            }
            case "batch" -> {
                num(r, "Attempts", 1);
                num(r, "Interval", 86400 * SECOND);
                num(r, "Delay", 5 * SECOND);
                text(r, "DelayFunction", "constant");
                num(r, "MaxDelay", 0);
                bool(r, "Unlimited", false);
            }
            default -> {
                num(r, "Attempts", 0);
                num(r, "Interval", 0);
                num(r, "Delay", 0);
                text(r, "DelayFunction", "");
                num(r, "MaxDelay", 0);
                bool(r, "Unlimited", false);
            }
        }
    }

    private static void task(ObjectNode t, ObjectNode groupRestart) {
        ObjectNode res = t.get("Resources") instanceof ObjectNode r ? r : F.objectNode();
        if (!res.hasNonNull("Cores")) {
            res.put("Cores", 0);
            num(res, "CPU", 100);
        }
        num(res, "CPU", 0);
        num(res, "MemoryMB", 300);
        t.set("Resources", res);
        num(t, "KillTimeout", 5 * SECOND);
        if (t.get("LogConfig") instanceof ObjectNode lc) {
            num(lc, "MaxFiles", 10);
            num(lc, "MaxFileSizeMB", 10);
            bool(lc, "Disabled", false);
        } else {
            t.set("LogConfig", F.objectNode().put("MaxFiles", 10).put("MaxFileSizeMB", 10).put("Disabled", false));
        }
        if (t.get("Lifecycle") instanceof ObjectNode lc && lc.path("Hook").asString("").isEmpty() && !lc.path("Sidecar").asBoolean(false)) {
            t.remove("Lifecycle");
        }
        ObjectNode rp = groupRestart.deepCopy();
        if (t.get("RestartPolicy") instanceof ObjectNode tr) {
            rp.setAll(nonNull(tr));
        }
        t.set("RestartPolicy", rp);
    }

    private static ObjectNode nonNull(ObjectNode o) {
        ObjectNode out = F.objectNode();
        o.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    private static void text(ObjectNode o, String field, String value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    private static void num(ObjectNode o, String field, long value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    private static void bool(ObjectNode o, String field, boolean value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }
}
