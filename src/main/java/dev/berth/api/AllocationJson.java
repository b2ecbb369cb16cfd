package dev.berth.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.job.Deployments;
import dev.berth.job.NodeDrain;
import dev.berth.job.JobService;

/**
 * Renders an allocation whole, as Nomad's {@code /v1/allocation/:id} does: the last submission exactly as sent (unknown
 * fields included), over Berth's canonical rendering of the spec (defaults filled), with the fields the node owns set
 * by the node (indexes, times, node, client status, task states, assigned resources) and the fields a Nomad server
 * fills filled when absent (job {@code Priority} 50, {@code Region} "global", {@code Datacenters}, {@code Status},
 * {@code Version}, task {@code KillTimeout} / {@code LogConfig}, …), and for an allocation the local scheduler placed its
 * {@code EvalID}, {@code NextAllocation}, {@code DeploymentID} and {@code DeploymentStatus}. Also renders Nomad's {@code AllocListStub}.
 */
@Component
final class AllocationJson {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    /** Nomad's {@code AllocListStub} fields, in its order (no omitempty: absent ones are written as null). */
    private static final List<String> STUB_FIELDS = List.of("ID", "EvalID", "Name", "Namespace", "NodeID", "NodeName", "JobID",
            "JobType", "JobVersion", "TaskGroup", "AllocatedResources", "DesiredStatus", "DesiredDescription", "ClientStatus",
            "ClientDescription", "DesiredTransition", "TaskStates", "DeploymentStatus", "FollowupEvalID", "NextAllocation",
            "RescheduleTracker", "PreemptedAllocations", "PreemptedByAllocation", "CreateIndex", "ModifyIndex", "CreateTime",
            "ModifyTime");

    /** Nomad's {@code DesiredDescription} of an allocation a drain stops. */
    static final String MIGRATING = "alloc is being migrated";

    private final JsonMapper json;
    private final NodeRegistry registry;
    private final JobService jobs;
    private final Deployments deployments;
    private final NodeDrain drain;

    AllocationJson(JsonMapper json, NodeRegistry registry, JobService jobs, Deployments deployments, NodeDrain drain) {
        this.json = json;
        this.drain = drain;
        this.deployments = deployments;
        this.registry = registry;
        this.jobs = jobs;
    }

    /** The whole allocation. */
    Map<String, Object> full(AllocView view) {
        Node node = registry.current();
        String nodeId = node.id();
        String nodeName = node.name();
        Map<String, Object> out = json.convertValue(AllocationDtos.AllocationDto.of(view, nodeId, nodeName), MAP);
        AllocDocument doc = view.document();
        if (doc.submitted() != null) {
            merge(out, doc.submitted());
        }
        // the node's own fields
        out.put("ID", view.record().id());
        out.put("NodeID", nodeId);
        out.put("NodeName", nodeName);
        out.put("CreateIndex", doc.createIndex());
        out.put("ModifyIndex", view.modifyIndex());
        if (doc.submitted() == null || !(doc.submitted().get("AllocModifyIndex") instanceof Number)) {
            // the submitter's own AllocModifyIndex (its latest-wins version) is returned as sent; without one, the node's
            out.put("AllocModifyIndex", doc.allocModifyIndex());
        }
        out.put("CreateTime", doc.createTimeNs());
        out.put("ModifyTime", view.modifyTimeNs());
        // what a Nomad server fills in as the scheduler: the evaluation that placed it, the allocation that replaced it
        String id = view.record().id();
        jobs.evalOf(id).ifPresent(e -> out.put("EvalID", e));
        jobs.replacementOf(id).ifPresent(next -> out.put("NextAllocation", next));
        jobs.deploymentOf(id).ifPresent(d -> {
            out.put("DeploymentID", d);
            deployments.allocStatus(d, id).ifPresent(s -> out.put("DeploymentStatus", json.convertValue(s, MAP)));
        });
        if (drain.migrated(id)) {
            // stopped by the node's drain: Nomad marks the transition and says why it stops
            out.put("DesiredTransition", Map.of("Migrate", true));
            out.put("DesiredDescription", MIGRATING);
        }
        out.put("ClientStatus", view.record().clientStatus());
        putOrRemove(out, "ClientDescription", view.record().clientDescription());
        AllocationDtos.AllocationDto dto = AllocationDtos.AllocationDto.of(view, nodeId, nodeName);
        if (dto.taskStates() != null) {
            out.put("TaskStates", json.convertValue(dto.taskStates(), MAP));
        } else {
            out.remove("TaskStates");
        }
        if (view.record().spec().allocatedResources() != null) {
            Object assigned = json.convertValue(view.record().spec().allocatedResources(), MAP);
            Object submitted = out.get("AllocatedResources");
            if (submitted instanceof Map<?, ?> sub) {
                Map<String, Object> merged = copy(sub);
                merge(merged, asMap(assigned));
                out.put("AllocatedResources", merged);
            } else {
                out.put("AllocatedResources", assigned);
            }
        }
        // server-filled when absent
        String namespace = str(out.get("Namespace"), "default");
        out.put("Namespace", namespace);
        out.putIfAbsent("DesiredStatus", "run");
        if (out.get("Job") instanceof Map<?, ?> j) {
            Map<String, Object> job = copy(j);
            canonicalJob(job, namespace, doc, view.record().clientStatus(), node.datacenter());
            out.put("Job", job);
            out.putIfAbsent("JobID", job.get("ID"));
        }
        // Nomad's Allocation omits every zero field
        out.values().removeIf(AllocationJson::zero);
        return out;
    }

    /** Nomad's {@code AllocListStub}; {@code resources} adds {@code AllocatedResources}, {@code taskStates} the states. */
    Map<String, Object> stub(AllocView view, boolean resources, boolean taskStates) {
        Map<String, Object> full = full(view);
        Map<String, Object> job = full.get("Job") instanceof Map<?, ?> j ? copy(j) : Map.of();
        Map<String, Object> out = new LinkedHashMap<>();
        for (String f : STUB_FIELDS) {
            Object v = switch (f) {
                case "JobType" -> job.get("Type");
                case "JobVersion" -> job.getOrDefault("Version", 0);
                case "AllocatedResources" -> resources ? full.get(f) : null;
                case "TaskStates" -> taskStates ? full.get(f) : null;
                case "CreateIndex", "ModifyIndex", "CreateTime", "ModifyTime" -> full.getOrDefault(f, 0L);
                default -> full.get(f);
            };
            if (v == null && STRING_STUB_FIELDS.contains(f)) {
                v = "";
            }
            out.put(f, v);
        }
        return out;
    }

    private static final List<String> STRING_STUB_FIELDS = List.of("ID", "EvalID", "Name", "Namespace", "NodeID", "NodeName",
            "JobID", "JobType", "TaskGroup", "DesiredStatus", "DesiredDescription", "ClientStatus", "ClientDescription",
            "FollowupEvalID", "NextAllocation", "PreemptedByAllocation");

    private static void canonicalJob(Map<String, Object> job, String namespace, AllocDocument doc, String clientStatus,
                                     String datacenter) {
        job.putIfAbsent("Region", "global");
        job.putIfAbsent("Namespace", namespace);
        job.putIfAbsent("Name", job.get("ID"));
        job.putIfAbsent("Type", "service");
        job.putIfAbsent("Priority", 50);
        job.putIfAbsent("AllAtOnce", false);
        job.putIfAbsent("Datacenters", List.of(datacenter));
        job.putIfAbsent("NodePool", "default");
        job.putIfAbsent("Stop", false);
        job.putIfAbsent("Status", ClientStatus.terminal(clientStatus) ? "dead" : "running");
        job.putIfAbsent("StatusDescription", "");
        job.putIfAbsent("Stable", false);
        job.putIfAbsent("Version", 0);
        job.putIfAbsent("SubmitTime", doc.createTimeNs());
        job.putIfAbsent("CreateIndex", doc.createIndex());
        job.putIfAbsent("ModifyIndex", doc.allocModifyIndex());
        job.putIfAbsent("JobModifyIndex", doc.allocModifyIndex());
        if (job.get("TaskGroups") instanceof List<?> groups) {
            List<Object> out = new ArrayList<>();
            for (Object g : groups) {
                if (g instanceof Map<?, ?> gm) {
                    Map<String, Object> group = copy(gm);
                    group.putIfAbsent("Count", 1);
                    if (group.get("Tasks") instanceof List<?> tasks) {
                        List<Object> ts = new ArrayList<>();
                        for (Object t : tasks) {
                            ts.add(t instanceof Map<?, ?> tm ? canonicalTask(copy(tm)) : t);
                        }
                        group.put("Tasks", ts);
                    }
                    out.add(group);
                } else {
                    out.add(g);
                }
            }
            job.put("TaskGroups", out);
        }
    }

    private static Map<String, Object> canonicalTask(Map<String, Object> task) {
        task.putIfAbsent("KillTimeout", 5_000_000_000L);
        task.putIfAbsent("Leader", false);
        task.putIfAbsent("LogConfig", new LinkedHashMap<>(Map.of("MaxFiles", 10, "MaxFileSizeMB", 10, "Disabled", false)));
        return task;
    }

    /** Overlays {@code top} onto {@code base}: objects merge key by key, equal-length lists element by element. */
    @SuppressWarnings("unchecked")
    static void merge(Map<String, Object> base, Map<String, Object> top) {
        top.forEach((k, v) -> base.merge(k, v == null ? NULL : v, (old, add) -> mergeValue(old, add)));
        base.replaceAll((k, v) -> v == NULL ? null : v);
    }

    private static final Object NULL = new Object();

    private static Object mergeValue(Object old, Object add) {
        if (add == NULL) {
            return NULL;
        }
        if (old instanceof Map<?, ?> om && add instanceof Map<?, ?> am) {
            Map<String, Object> m = copy(om);
            merge(m, copy(am));
            return m;
        }
        if (old instanceof List<?> ol && add instanceof List<?> al && ol.size() == al.size()) {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < al.size(); i++) {
                Object a = al.get(i);
                l.add(a == null ? null : mergeValue(ol.get(i), a));
            }
            return l;
        }
        return add;
    }

    private static Map<String, Object> copy(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static Map<String, Object> asMap(Object o) {
        return o instanceof Map<?, ?> m ? copy(m) : new LinkedHashMap<>();
    }

    private static void putOrRemove(Map<String, Object> m, String k, String v) {
        if (v == null || v.isEmpty()) {
            m.remove(k);
        } else {
            m.put(k, v);
        }
    }

    private static String str(Object o, String dflt) {
        return o instanceof String s && !s.isEmpty() ? s : dflt;
    }

    private static boolean zero(Object v) {
        return v == null || (v instanceof String s && s.isEmpty()) || (v instanceof Map<?, ?> m && m.isEmpty())
                || (v instanceof List<?> l && l.isEmpty()) || Boolean.FALSE.equals(v)
                || (v instanceof Number n && n.doubleValue() == 0);
    }
}
