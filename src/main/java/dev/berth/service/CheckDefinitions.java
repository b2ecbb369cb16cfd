package dev.berth.service;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ServiceCheckSpec;
import dev.berth.alloc.spec.ServiceSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.service.probe.CheckProbe;
import dev.berth.service.probe.GrpcProbe;
import dev.berth.service.probe.HttpClients;
import dev.berth.service.probe.HttpProbe;
import dev.berth.service.probe.ProbeResult;
import dev.berth.service.probe.ScriptProbe;
import dev.berth.service.probe.TcpProbe;

/**
 * Turns a group's or task's {@code Provider: "nomad"} services into registrations and armed-check definitions: every
 * service and check field interpolated with the task's environment ({@code ${NOMAD_PORT_http}}, {@code ${NOMAD_ADDR_x}},
 * {@code ${NOMAD_IP_x}}, node attributes…), addresses resolved from the port label as Nomad's {@code host} address mode
 * does ({@code NOMAD_IP_<label>}:{@code NOMAD_HOST_PORT_<label>}; {@code alloc} mode takes the mapped port; a service
 * {@code Address} wins), Nomad's check IDs and default check names.
 */
final class CheckDefinitions {

    /** A service registration with its checks. */
    record Built(ServiceRegistration registration, List<CheckDefinition> checks) {
    }

    private final HttpClients http;
    private final String nodeId;
    private final String datacenter;

    CheckDefinitions(HttpClients http, String nodeId, String datacenter) {
        this.http = http;
        this.nodeId = nodeId;
        this.datacenter = datacenter;
    }

    /**
     * @param ownerTask the task owning the services, or null for group services
     * @param tasks     looks up a running task by name (script checks run in it)
     */
    List<Built> build(AllocationSpec alloc, String group, String ownerTask, List<ServiceSpec> services, Interpolator env,
                      Function<String, Optional<RunningTask>> tasks) {
        List<Built> out = new ArrayList<>();
        for (ServiceSpec raw : services) {
            if (!raw.isNomad()) {
                continue;
            }
            String name = env.replace(raw.name());
            String label = nz(env.replace(raw.portLabel()));
            Endpoint ep = endpoint(env, nz(env.replace(raw.address())), label, raw.addressMode());
            String regTask = ownerTask != null ? ownerTask : "group-" + group;
            String regId = "_nomad-task-" + alloc.id() + "-" + regTask + "-" + name + "-" + label;
            List<String> tags = raw.tagsOrEmpty().stream().map(env::replace).toList();
            ServiceRegistration reg = new ServiceRegistration(regId, name, namespace(alloc), nodeId, datacenter, alloc.jobId(),
                    alloc.id(), tags, ep.host(), ep.port(), 0, 0, raw.checksOrEmpty().isEmpty() ? null : CheckResult.PENDING);
            List<CheckDefinition> checks = new ArrayList<>();
            for (ServiceCheckSpec c : raw.checksOrEmpty()) {
                checks.add(check(alloc, group, ownerTask, raw, name, ep, c, env, regId, tasks));
            }
            out.add(new Built(reg, checks));
        }
        return out;
    }

    private CheckDefinition check(AllocationSpec alloc, String group, String ownerTask, ServiceSpec s, String serviceName,
                                  Endpoint serviceEp, ServiceCheckSpec c, Interpolator env, String regId,
                                  Function<String, Optional<RunningTask>> tasks) {
        String type = c.type().toLowerCase();
        String checkName = c.name() == null || c.name().isEmpty() ? "service: \"" + serviceName + "\" check" : env.replace(c.name());
        String checkLabel = nz(env.replace(c.portLabel()));
        Endpoint ep = checkLabel.isEmpty() ? serviceEp
                : endpoint(env, serviceEp.custom() ? serviceEp.host() : "", checkLabel, c.addressMode());
        String onUpdate = c.onUpdate() != null && !c.onUpdate().isEmpty() ? c.onUpdate() : nz(s.onUpdate());
        String mode = "ignore".equals(onUpdate) ? "readiness" : "healthiness";
        String checkTask = nz(c.taskName()).isEmpty() ? nz(s.taskName()) : c.taskName();
        String runIn = ownerTask != null ? ownerTask : checkTask.isEmpty() ? null : checkTask;
        String restartTask = c.triggersRestarts() ? runIn : null;
        String id = checkId(alloc.id(), group, ownerTask != null ? ownerTask : checkTask, checkName, type, checkLabel, onUpdate, c);
        Supplier<CheckProbe> probe = switch (type) {
            case "http" -> () -> httpProbe(c, ep, env);
            case "tcp" -> () -> ep.port() > 0 ? new TcpProbe(ep.host(), ep.port()) : unresolved(ep);
            case "grpc" -> () -> ep.port() > 0
                    ? new GrpcProbe(ep.host(), ep.port(), env.replace(c.grpcService()), Boolean.TRUE.equals(c.grpcUseTls()),
                    Boolean.TRUE.equals(c.tlsSkipVerify()))
                    : unresolved(ep);
            default -> () -> scriptProbe(runIn, env.replace(c.command()),
                    c.args() == null ? List.of() : c.args().stream().map(env::replace).toList(), tasks);
        };
        return new CheckDefinition(id, alloc.id(), group, ownerTask, serviceName, checkName, regId, type, mode, c.intervalDuration(),
                c.timeoutDuration(), nz(c.initialStatus()), c.successBeforePassingOrZero(), c.failuresBeforeCriticalOrZero(),
                c.checkRestart(), restartTask, probe);
    }

    private CheckProbe httpProbe(ServiceCheckSpec c, Endpoint ep, Interpolator env) {
        if (ep.port() <= 0) {
            return unresolved(ep);
        }
        String protocol = c.protocol() == null || c.protocol().isEmpty() ? "http" : c.protocol();
        String host = ep.host().contains(":") ? "[" + ep.host() + "]" : ep.host();
        URI uri = URI.create(protocol + "://" + host + ":" + ep.port()).resolve(env.replace(c.path()));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (c.header() != null) {
            c.header().forEach((k, v) -> headers.put(k, v == null ? List.of() : v.stream().map(env::replace).toList()));
        }
        return new HttpProbe(http.client(Boolean.TRUE.equals(c.tlsSkipVerify())), uri, env.replace(c.method()), headers,
                env.replace(c.body()));
    }

    private static CheckProbe scriptProbe(String taskName, String command, List<String> args,
                                          Function<String, Optional<RunningTask>> tasks) {
        Optional<RunningTask> task = taskName == null ? Optional.empty() : tasks.apply(taskName);
        if (task.isEmpty()) {
            return timeout -> ProbeResult.failure("task \"" + taskName + "\" is not running");
        }
        if ("docker".equals(task.get().driver())) {
            return timeout -> ProbeResult.failure("script checks are not supported for docker tasks");
        }
        return new ScriptProbe(command, args, task.get().env(), task.get().taskDir(), task.get().cgroupProcs());
    }

    private static CheckProbe unresolved(Endpoint ep) {
        return timeout -> ProbeResult.failure(ep.problem());
    }

    /** A resolved address; {@code problem} says why {@code port} is 0. */
    record Endpoint(String host, int port, boolean custom, String problem) {
    }

    static Endpoint endpoint(Interpolator env, String customAddress, String label, String addressMode) {
        boolean custom = !customAddress.isEmpty();
        if (label.isEmpty()) {
            return new Endpoint(custom ? customAddress : "127.0.0.1", 0, custom, "no port label");
        }
        if (label.matches("\\d+")) {
            return new Endpoint(custom ? customAddress : "127.0.0.1", Integer.parseInt(label), custom, "");
        }
        String key = label.replaceAll("[^A-Za-z0-9_]", "_");
        Map<String, String> e = env.env();
        String ip = e.get("NOMAD_IP_" + key);
        String port = "alloc".equals(addressMode) ? e.get("NOMAD_PORT_" + key) : e.getOrDefault("NOMAD_HOST_PORT_" + key, e.get("NOMAD_PORT_" + key));
        if (port == null) {
            return new Endpoint(custom ? customAddress : "127.0.0.1", 0, custom, "invalid port \"" + label + "\": port label not found");
        }
        return new Endpoint(custom ? customAddress : ip == null ? "127.0.0.1" : ip, Integer.parseInt(port), custom, "");
    }

    /** Nomad's {@code NomadCheckID}: a SHA-256 over the check's coordinates and definition. */
    static String checkId(String allocId, String group, String task, String name, String type, String label, String onUpdate,
                          ServiceCheckSpec c) {
        try {
            MessageDigest sum = MessageDigest.getInstance("SHA-256");
            for (String s : List.of(allocId, nz(group), nz(task), name, type, label, onUpdate, nz(c.addressMode()))) {
                sum.update(s.getBytes(StandardCharsets.UTF_8));
            }
            for (Duration d : List.of(c.intervalDuration(), c.timeoutDuration())) {
                sum.update(Long.toString(d.toNanos()).getBytes(StandardCharsets.UTF_8));
            }
            for (String s : List.of(nz(c.protocol()), nz(c.path()), nz(c.method()), String.valueOf(Boolean.TRUE.equals(c.tlsSkipVerify())),
                    nz(c.command()), String.valueOf(c.args()), nz(c.grpcService()))) {
                sum.update(s.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sum.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String namespace(AllocationSpec alloc) {
        return alloc.namespace() == null || alloc.namespace().isEmpty() ? "default" : alloc.namespace();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
