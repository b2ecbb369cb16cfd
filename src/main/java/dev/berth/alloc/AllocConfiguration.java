package dev.berth.alloc;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;


import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.alloc.admission.NodeCapacity;
import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.restore.AllocRestorer;
import dev.berth.alloc.restore.Reconciler;
import dev.berth.alloc.restore.RestoredCounters;
import dev.berth.alloc.runner.AllocHooks;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.alloc.task.RestartTracking;
import dev.berth.alloc.task.Sleeper;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.task.TaskHooks;
import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;
import dev.berth.driver.DriverManager;
import dev.berth.fingerprint.NodeRegistry;

/** Wires the alloc service, its runners' collaborators, metrics and the shutdown lifecycle. */
@Configuration(proxyBeanMethods = false)
class AllocConfiguration {

    /** Admission capacity is the fingerprinted node's: CPU MHz and memory MB from {@code NodeResources}. */
    @Bean
    NodeCapacity nodeCapacity(NodeRegistry node) {
        return new NodeCapacity() {
            @Override
            public long cpuMhz() {
                return node.current().resources().cpu().cpuShares();
            }

            @Override
            public long memoryMb() {
                return node.current().resources().memory().memoryMb();
            }
        };
    }

    /** The node's interpolation keys; {@code node.datacenter} falls back to {@code berth.datacenter}. */
    private static java.util.Map<String, String> nodeKeys(dev.berth.fingerprint.Node n, String dc, dev.berth.alloc.spec.AllocationSpec alloc) {
        var keys = new java.util.LinkedHashMap<>(Interpolator.nodeAttributes(n, alloc.job() == null ? null : alloc.job().region()));
        if (keys.get("node.datacenter").isEmpty()) {
            keys.put("node.datacenter", dc);
        }
        return keys;
    }

    @Bean
    AllocManager allocManager(AllocStateStore store, DriverManager drivers, NodeCapacity capacity, BerthProperties props, Clock clock,
                              List<AllocHooks.AllocHook> allocHooks, ObjectProvider<TaskHooks.TaskHook> taskHooks, BerthMetrics berthMetrics,
                              ObjectProvider<dev.berth.device.DeviceAllocator> devices, NodeRegistry node) {
        RandomGenerator random = RandomGenerator.getDefault();
        PortAllocator ports = new PortAllocator(props.client().minDynamicPort(), props.client().maxDynamicPort(), random);
        Duration maxKill = props.client().maxKillTimeout();
        AllocManager manager = new AllocManager(store, drivers, capacity, ports, clock, maxKill, devices.getIfAvailable());
        AllocMetrics metrics = new AllocMetrics(berthMetrics, manager::runners, capacity, manager::allocated);
        var listener = new AllocRunnerContext.AllocListener() {
            @Override
            public void taskStarted(String allocId, String task) {
                manager.taskStarted(allocId);
            }

            @Override
            public void taskRestarting(String allocId, String task) {
                metrics.restarted();
            }

            @Override
            public void taskOomKilled(String allocId, String task) {
                metrics.oomKilled();
            }

            @Override
            public void hookTimed(String hook, String phase, long nanos) {
                metrics.hook(hook, phase, nanos);
            }

            @Override
            public void allocFinished(String allocId) {
                manager.allocFinished(allocId);
            }

            @Override
            public void allocDestroyed(String allocId) {
                manager.allocDestroyed(allocId);
            }
        };
        String dc = props.datacenter();
        var env = System.getenv();
        AllocRunnerContext ctx = new AllocRunnerContext(props.allocDir().toAbsolutePath(), store,
                name -> drivers.driver(name).orElseThrow(), allocHooks, taskHooks.orderedStream().toList(), clock, Sleeper.REAL, maxKill,
                (alloc, task, restored) -> RestartTracking.of(RestoredCounters.apply(new RestartTracker(task.restartPolicy().toPolicy(),
                        alloc.job().type(), task.hook(), task.sidecar(), clock, random), restored)),
                hc -> TaskEnvironment.interpolator(hc.alloc(), hc.group(), hc.task(),
                        new AllocDir(props.allocDir().toAbsolutePath(), hc.alloc().id()), nodeKeys(node.current(), dc, hc.alloc()), env),
                listener);
        manager.init(ctx, metrics);
        return manager;
    }

    /** tmpfs for each task's secrets/ and private/ ({@code berth.alloc.secrets-tmpfs}). */
    @Bean
    SecretsTmpfs secretsTmpfs(AllocProperties props) {
        return new SecretsTmpfs(props.secretsTmpfs());
    }

    /** Crash reconciliation (issue 7): kills task processes no persisted handle accounts for, before allocs are restored. */
    @Bean
    SmartLifecycle allocReconciler(AllocStateStore store, DriverManager drivers, Clock clock, BerthMetrics berthMetrics) {
        return new AllocRestorer(new Reconciler(store, drivers, clock), berthMetrics);
    }

    /** Restores allocs at start; agent shutdown ends every runner thread, tasks keep running (stop ≠ kill). */
    @Bean
    SmartLifecycle allocShutdownLifecycle(AllocManager manager) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                manager.restore();
                running = true;
            }

            /** Before the web server starts (API ready after restore), stopped after it. */
            @Override
            public int getPhase() {
                return 0;
            }

            @Override
            public void stop() {
                manager.shutdown(Duration.ofSeconds(10));
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }
        };
    }
}
