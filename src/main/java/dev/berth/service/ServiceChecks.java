package dev.berth.service;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

import dev.berth.alloc.runner.AllocRunners;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ServiceSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.config.BerthMetrics;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.service.probe.HttpClients;

/**
 * Arms and disarms the checks of running tasks and allocations, keeps the registry's registrations and health in step,
 * records metrics and runs {@code check_restart}: a restart goes through the task runner's restart (the restart
 * tracker counts it as a failure, as Nomad's check watcher does) with Nomad's event {@code Restart Signaled} /
 * {@code healthcheck: check "<name>" unhealthy}. Task services live from the task's start (or re-attach after an agent
 * restart) to its exit; group services from the alloc's prerun to its postrun or destroy. Thread-safe.
 */
public class ServiceChecks implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ServiceChecks.class);

    private final ServiceRegistry registry;
    private final AllocRunners runners;
    private final NodeRegistry node;
    private final String fallbackDatacenter;
    private final CheckScheduler scheduler;
    private final HttpClients http;
    private final CheckMetrics metrics;
    private final Map<String, RunningTask> running = new ConcurrentHashMap<>();
    /** registration ID → its check IDs. */
    private final Map<String, Set<String>> checksOfRegistration = new ConcurrentHashMap<>();
    /** alloc/task (alloc/ for group services) → the registration IDs it owns. */
    private final Map<String, Set<String>> registrationsOf = new ConcurrentHashMap<>();

    public ServiceChecks(ServiceRegistry registry, AllocRunners runners, NodeRegistry node, String fallbackDatacenter,
                         BerthMetrics berthMetrics, Clock clock, int maxConcurrent) {
        this.registry = registry;
        this.runners = runners;
        this.node = node;
        this.fallbackDatacenter = fallbackDatacenter;
        this.scheduler = new CheckScheduler(clock, maxConcurrent, this::onResult);
        this.http = new HttpClients(Executors.newVirtualThreadPerTaskExecutor());
        this.metrics = new CheckMetrics(berthMetrics, () -> scheduler.results(d -> true).stream());
    }

    /** A task started or was re-attached: its services register and their checks arm (replacing earlier copies). */
    public void taskStarted(AllocationSpec alloc, String group, String task, List<ServiceSpec> services, Interpolator env,
                            RunningTask runningTask) {
        running.put(key(alloc.id(), task), runningTask);
        arm(alloc, group, task, services, env);
    }

    /** A task exited or stopped: its checks stop and its services deregister. */
    public void taskStopped(String allocId, String task) {
        running.remove(key(allocId, task));
        disarm(d -> d.allocId().equals(allocId) && task.equals(d.task()), true);
        Set<String> owned = registrationsOf.remove(key(allocId, task));
        if (owned != null) {
            owned.forEach(registry::deregister);
        }
    }

    /** Agent shutdown: the task keeps running, its checks stop (they are re-armed when it is re-attached). */
    public void taskShutdown(String allocId, String task) {
        running.remove(key(allocId, task));
        disarm(d -> d.allocId().equals(allocId) && task.equals(d.task()), false);
    }

    /** The alloc's group services register and their checks arm. */
    public void groupStarted(AllocationSpec alloc, String group, List<ServiceSpec> services, Interpolator env) {
        arm(alloc, group, null, services, env);
    }

    /** The alloc is done or destroyed: nothing of it stays armed or registered. */
    public void allocDone(String allocId) {
        running.keySet().removeIf(k -> k.startsWith(allocId + "/"));
        disarm(d -> d.allocId().equals(allocId), true);
        registrationsOf.keySet().removeIf(k -> k.startsWith(allocId + "/"));
        registry.deregisterAlloc(allocId);
    }

    /** Agent shutdown: the alloc's checks stop; registrations stay until it is restored. */
    public void allocShutdown(String allocId) {
        running.keySet().removeIf(k -> k.startsWith(allocId + "/"));
        disarm(d -> d.allocId().equals(allocId), false);
    }

    /** The latest result of every armed check of an allocation, by check ID. */
    public Map<String, CheckResult> results(String allocId) {
        Map<String, CheckResult> out = new LinkedHashMap<>();
        scheduler.results(d -> d.allocId().equals(allocId)).forEach(r -> out.put(r.id(), r));
        return out;
    }

    public int armedCount() {
        return scheduler.armedCount();
    }

    private void arm(AllocationSpec alloc, String group, String task, List<ServiceSpec> services, Interpolator env) {
        if (services.stream().noneMatch(ServiceSpec::isNomad)) {
            return;
        }
        var n = node.current();
        String dc = n.datacenter() == null || n.datacenter().isEmpty() ? fallbackDatacenter : n.datacenter();
        CheckDefinitions defs = new CheckDefinitions(http, n.id(), dc);
        for (CheckDefinitions.Built b : defs.build(alloc, group, task, services, env, t -> Optional.ofNullable(running.get(key(alloc.id(), t))))) {
            registry.register(b.registration());
            registrationsOf.computeIfAbsent(key(alloc.id(), task == null ? "" : task), k -> ConcurrentHashMap.newKeySet())
                    .add(b.registration().id());
            Set<String> ids = checksOfRegistration.computeIfAbsent(b.registration().id(), k -> ConcurrentHashMap.newKeySet());
            for (CheckDefinition d : b.checks()) {
                ids.add(d.id());
                scheduler.arm(d);
            }
            registry.health(b.registration().id(), () -> health(b.registration().id()));
        }
    }

    private void disarm(Predicate<CheckDefinition> which, boolean forget) {
        for (CheckDefinition d : scheduler.disarmWhere(which)) {
            if (forget) {
                Set<String> ids = checksOfRegistration.get(d.registrationId());
                if (ids != null) {
                    ids.remove(d.id());
                    if (ids.isEmpty()) {
                        checksOfRegistration.remove(d.registrationId());
                    }
                }
            }
        }
    }

    private void onResult(CheckDefinition def, CheckResult result, long latencyNanos, boolean statusChanged, boolean restart) {
        metrics.record(def.type(), result.status(), latencyNanos);
        if (statusChanged) {
            // only a status change can change the registration's health: no walk over its checks for every probe
            registry.health(def.registrationId(), () -> health(def.registrationId()));
        }
        if (restart) {
            Thread.ofVirtual().name("berth-check-restart").start(() -> restart(def));
        }
    }

    /** failure if any check fails, pending if any has no result yet, else success; null without checks. */
    private String health(String registrationId) {
        Set<String> ids = checksOfRegistration.get(registrationId);
        if (ids == null || ids.isEmpty()) {
            return null;
        }
        var results = ids.stream().map(scheduler::result).filter(java.util.Objects::nonNull).toList();
        if (results.stream().anyMatch(r -> CheckResult.FAILURE.equals(r.status()))) {
            return CheckResult.FAILURE;
        }
        return results.stream().allMatch(r -> CheckResult.SUCCESS.equals(r.status())) && !results.isEmpty()
                ? CheckResult.SUCCESS : CheckResult.PENDING;
    }

    private void restart(CheckDefinition def) {
        String reason = "healthcheck: check \"" + def.check() + "\" unhealthy";
        try {
            TaskRunner tr = runners.find(def.allocId()).map(r -> r.task(def.restartTask())).orElse(null);
            if (tr == null) {
                return;
            }
            log.info("restarting task for an unhealthy check: alloc={} task={} check={}", def.allocId(), def.restartTask(), def.check());
            tr.restart(reason, true);
        } catch (TaskRunner.TaskNotRunningException e) {
            log.debug("check restart: task not running: alloc={} task={}", def.allocId(), def.restartTask());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void destroy() {
        scheduler.close();
        http.close();
    }

    private static String key(String allocId, String task) {
        return allocId + "/" + task;
    }
}
