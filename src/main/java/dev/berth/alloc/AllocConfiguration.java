package dev.berth.alloc;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.alloc.admission.CoreAllocator;
import dev.berth.alloc.admission.NodeAdmission;
import dev.berth.alloc.admission.NodeCapacity;
import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.restore.AllocRestorer;
import dev.berth.alloc.restore.Reconciler;
import dev.berth.alloc.runner.AllocHooks;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.AllocRunners;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.config.Sleeper;
import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.task.TaskHooks;
import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;
import dev.berth.volume.HostVolumes;
import dev.berth.device.DeviceAllocator;
import dev.berth.driver.DriverManager;
import dev.berth.events.ChangeFeed;
import dev.berth.fingerprint.NodeRegistry;

/** Wires the alloc service, its runner registry, admission, the runners' shared context, metrics and the lifecycle. */
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

            @Override
            public CoreSet reservableCores() {
                var cpu = node.current().resources().cpu(); // null while the CPU is not fingerprinted
                return cpu == null ? CoreSet.EMPTY : CoreSet.of(cpu.reservableCpuCores());
            }

            @Override
            public long mhzPerCore() {
                var cpu = node.current().resources().cpu(); // the node's CPU shares are its reservable cores' MHz
                return cpu == null || cpu.reservableCpuCores().isEmpty() ? 0 : cpu.cpuShares() / cpu.reservableCpuCores().size();
            }
        };
    }

    /**
     * Reserved cores: every change moves the tasks that share the node's cores off the reserved ones: the cgroups of
     * exec and raw_exec tasks ({@link CgroupManager#applyPartition}) and docker's containers
     * ({@link dev.berth.driver.docker.DockerDriver#applyPartition}).
     */
    @Bean
    CoreAllocator coreAllocator(ObjectProvider<CgroupManager> cgroups, ObjectProvider<dev.berth.driver.docker.DockerDriver> docker) {
        CgroupManager manager = cgroups.getIfAvailable();
        dev.berth.driver.docker.DockerDriver containers = docker.getIfAvailable();
        return new CoreAllocator(partition -> {
            if (manager != null) {
                manager.applyPartition(partition);
            }
            if (containers != null) {
                containers.applyPartition(partition);
            }
        });
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
    AllocRunners allocRunners() {
        return new AllocRunners();
    }

    @Bean
    NodeAdmission nodeAdmission(NodeCapacity capacity, BerthProperties props, ObjectProvider<DeviceAllocator> devices,
                                HostVolumes hostVolumes, CoreAllocator cores) {
        PortAllocator ports = new PortAllocator(props.client().minDynamicPort(), props.client().maxDynamicPort(),
                RandomGenerator.getDefault());
        return new NodeAdmission(capacity, ports, devices.getIfAvailable(), hostVolumes::get, cores);
    }

    @Bean
    AllocMetrics allocMetrics(BerthMetrics berthMetrics, AllocRunners runners, NodeCapacity capacity) {
        return new AllocMetrics(berthMetrics, runners::all, capacity, () -> AllocManager.allocated(runners.all()));
    }

    /** The allocations' modify indexes, submitted documents and change events on the node's feed. */
    @Bean
    AllocChanges allocChanges(ChangeFeed feed, Clock clock) {
        return new AllocChanges(feed, clock);
    }

    @Bean
    RunnerEvents runnerEvents(AllocRunners runners, NodeAdmission admission, AllocMetrics metrics, Clock clock,
                              AllocChanges changes) {
        return new RunnerEvents(runners, admission, metrics, clock, changes);
    }

    /** What every alloc runner shares: state, drivers, hooks, restart trackers (continued from persisted counters), env. */
    @Bean
    AllocRunnerContext allocRunnerContext(AllocStateStore store, DriverManager drivers, BerthProperties props, Clock clock,
                                          List<AllocHooks.AllocHook> allocHooks, ObjectProvider<TaskHooks.TaskHook> taskHooks,
                                          RunnerEvents events, NodeRegistry node) {
        RandomGenerator random = RandomGenerator.getDefault();
        Path allocsRoot = props.allocDir().toAbsolutePath();
        String dc = props.datacenter();
        Map<String, String> env = System.getenv();
        AllocRunnerContext.TrackerFactory trackers = (alloc, task, restored) -> new RestartTracker(
                task.restartPolicy().toPolicy(), alloc.job().type(), task.hook(), task.sidecar(), clock, random)
                .continueFrom(restored);
        return new AllocRunnerContext(allocsRoot, store, name -> drivers.driver(name).orElseThrow(), allocHooks,
                taskHooks.orderedStream().toList(), clock, Sleeper.system(), props.client().maxKillTimeout(), trackers,
                hc -> TaskEnvironment.interpolator(hc.alloc(), hc.group(), hc.task(), new AllocDir(allocsRoot, hc.alloc().id()),
                        nodeKeys(node.current(), dc, hc.alloc()), env),
                events);
    }

    @Bean
    AllocManager allocManager(AllocStateStore store, DriverManager drivers, AllocRunners runners, NodeAdmission admission,
                              AllocRunnerContext runnerContext, RunnerEvents events, BerthProperties props,
                              AllocChanges changes) {
        return new AllocManager(store, drivers, runners, admission, runnerContext, events, props.client().maxKillTimeout(),
                changes);
    }

    /** tmpfs for each task's secrets/ and private/ ({@code berth.alloc.secrets-tmpfs}). */
    @Bean
    SecretsTmpfs secretsTmpfs(AllocProperties props) {
        return new SecretsTmpfs(props.secretsTmpfs());
    }

    /** Crash reconciliation: kills task processes no persisted handle accounts for, before allocs are restored. */
    @Bean
    SmartLifecycle allocReconciler(AllocStateStore store, DriverManager drivers, Clock clock, BerthMetrics berthMetrics) {
        return new AllocRestorer(new Reconciler(store, drivers, clock), berthMetrics);
    }

    /**
     * Restores allocs at start (the node's reservable cores told to the cgroups first, so tasks that share cores stay on
     * them even before any core is reserved); agent shutdown ends every runner thread, tasks keep running (stop ≠ kill).
     */
    @Bean
    SmartLifecycle allocShutdownLifecycle(AllocManager manager, CoreAllocator cores, NodeCapacity capacity) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                cores.reservable(capacity.reservableCores());
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
