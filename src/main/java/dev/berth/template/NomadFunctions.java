package dev.berth.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.berth.service.ServiceRegistration;
import dev.berth.service.ServiceRegistry;
import dev.berth.template.gotmpl.TemplateFunction;
import dev.berth.variables.Variable;
import dev.berth.variables.VariableMeta;
import dev.berth.variables.WorkloadIdentity;
import dev.berth.variables.WorkloadVariables;

/**
 * consul-template's Nomad functions, answered from this node: {@code nomadVar} (the items of a variable, as a map;
 * a missing one is recorded as a blocking dependency), {@code nomadVarExists}, {@code nomadVarList} (the readable
 * variables under a prefix), {@code nomadService} (the registrations of a service) and {@code nomadServices} (every
 * service with its tags). Variables are read as the task's workload identity, so Nomad's policy applies.
 */
final class NomadFunctions {

    private final WorkloadVariables variables;
    private final ServiceRegistry services;
    private final WorkloadIdentity who;

    NomadFunctions(WorkloadVariables variables, ServiceRegistry services, WorkloadIdentity who) {
        this.variables = variables;
        this.services = services;
        this.who = who;
    }

    Map<String, TemplateFunction> functions(Dependencies deps) {
        Map<String, TemplateFunction> f = new LinkedHashMap<>();
        f.put("nomadVar", TemplateFunction.fixed(1, a -> variable(deps, path(a.getFirst()))));
        f.put("nomadVarExists", TemplateFunction.fixed(1, a -> {
            deps.readVariables();
            return variables.read(who, path(a.getFirst())).value().isPresent();
        }));
        f.put("nomadVarList", a -> {
            if (a.size() > 1) {
                throw new TemplateFunction.WrongArguments("0 or 1", a.size());
            }
            deps.readVariables();
            return variables.list(who, a.isEmpty() ? "" : path(a.getFirst())).value().stream().map(NomadFunctions::meta).toList();
        });
        f.put("nomadService", TemplateFunction.fixed(1, a -> {
            deps.readServices();
            return services.byName(String.valueOf(a.getFirst()), who.namespace()).value().stream().map(NomadFunctions::service).toList();
        }));
        f.put("nomadServices", TemplateFunction.fixed(0, a -> {
            deps.readServices();
            return serviceList();
        }));
        return f;
    }

    private Object variable(Dependencies deps, String path) {
        Optional<Variable> v = variables.read(who, path).value();
        if (v.isEmpty()) {
            deps.missingVariable(path, who.namespace());
            return Map.of();
        }
        deps.readVariables();
        return new TreeMap<String, Object>(v.get().items());
    }

    private List<Map<String, Object>> serviceList() {
        Map<String, List<String>> tags = new TreeMap<>();
        for (ServiceRegistration r : services.all()) {
            if (r.namespace().equals(who.namespace())) {
                List<String> t = tags.computeIfAbsent(r.serviceName(), k -> new ArrayList<>());
                (r.tags() == null ? List.<String>of() : r.tags()).stream().filter(x -> !t.contains(x)).forEach(t::add);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        tags.forEach((name, t) -> out.add(Map.of("Name", name, "Namespace", who.namespace(), "Tags", List.copyOf(t))));
        return out;
    }

    private static String path(Object arg) {
        return String.valueOf(arg).replaceFirst("@.*$", "");
    }

    private static Map<String, Object> meta(VariableMeta m) {
        return Map.of("Namespace", m.namespace(), "Path", m.path(), "CreateIndex", m.createIndex(), "ModifyIndex", m.modifyIndex(),
                "CreateTime", m.createTime(), "ModifyTime", m.modifyTime());
    }

    private static Map<String, Object> service(ServiceRegistration r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ID", r.id());
        m.put("Name", r.serviceName());
        m.put("Namespace", r.namespace());
        m.put("NodeID", r.nodeId());
        m.put("Datacenter", r.datacenter());
        m.put("JobID", r.jobId());
        m.put("AllocID", r.allocId());
        m.put("Tags", r.tags() == null ? List.of() : r.tags());
        m.put("Address", r.address());
        m.put("Port", (long) r.port());
        return m;
    }
}
