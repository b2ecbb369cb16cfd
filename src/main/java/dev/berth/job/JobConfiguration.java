package dev.berth.job;

import java.time.Clock;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.task.Interpolator;
import dev.berth.events.ChangeFeed;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.namespace.NamespaceService;
import dev.berth.service.CheckResult;
import dev.berth.service.ServiceChecks;
import dev.berth.volume.VolumePlacement;

/** Wires the node-local job API: registry, scheduler (started after allocations are restored) and service. */
@Configuration(proxyBeanMethods = false)
class JobConfiguration {

    @Bean
    JobRegistry jobRegistry(JobStore store, ChangeFeed feed, Clock clock) {
        return new JobRegistry(store, feed, clock);
    }

    @Bean
    Deployments deployments(JobRegistry registry, JobStore store, ChangeFeed feed, Clock clock, AllocManager allocs,
                            ServiceChecks checks) {
        return new Deployments(registry, store, feed, clock, allocs,
                allocId -> checks.results(allocId).values().stream().map(CheckResult::status).toList());
    }

    @Bean
    DeploymentActions deploymentActions(Deployments deployments, Clock clock) {
        return new DeploymentActions(deployments, clock);
    }

    @Bean
    NodeDrain nodeDrain(NodeRegistry node, JobStore store, Clock clock) {
        return new NodeDrain(node, store, clock);
    }

    @Bean(destroyMethod = "close")
    LocalScheduler localScheduler(JobRegistry registry, AllocManager allocs, JobStore store, ChangeFeed feed, Clock clock,
                                  NodeRegistry node, Deployments deployments, NodeDrain drain) {
        return new LocalScheduler(registry, allocs, store, feed, clock, () -> Interpolator.nodeAttributes(node.current(), null),
                name -> java.util.Optional.ofNullable(node.current().hostVolumes().get(name)), deployments, drain);
    }

    /** A dynamic host volume's constraints, checked against this node as a job's are. */
    @Bean
    VolumePlacement volumePlacement(NodeRegistry node) {
        return constraints -> {
            Interpolator attributes = Interpolator.forNode(Interpolator.nodeAttributes(node.current(), null));
            return constraints.stream().allMatch(c -> Constraints.met(c.lTarget(), c.operand(), c.rTarget(), attributes));
        };
    }

    @Bean
    JobService jobService(JobRegistry registry, LocalScheduler scheduler, AllocManager allocs, NamespaceService namespaces) {
        return new JobService(registry, scheduler, allocs, namespaces);
    }

    @Bean
    JobScaling jobScaling(JobRegistry registry, LocalScheduler scheduler, AllocManager allocs, ChangeFeed feed, Clock clock) {
        return new JobScaling(registry, scheduler, allocs, feed, clock);
    }

    @Bean(destroyMethod = "close")
    PeriodicLauncher periodicLauncher(JobRegistry registry, JobStore store, Clock clock, JobService service) {
        PeriodicLauncher launcher = new PeriodicLauncher(registry, store, clock, service::registerChild);
        service.nextLaunch(launcher::nextLaunch);
        return launcher;
    }

    /** Periodic launches start with the scheduler (phase 10) and, like it, survive a stop and a start. */
    @Bean
    SmartLifecycle periodicLauncherLifecycle(PeriodicLauncher launcher) {
        return new SmartLifecycle() {
            @Override
            public void start() {
                launcher.start();
            }

            @Override
            public void stop() {
                launcher.close();
            }

            @Override
            public boolean isRunning() {
                return launcher.running();
            }

            @Override
            public int getPhase() {
                return 11;
            }
        };
    }

    /** The scheduler starts after alloc restore (phase 0) so its first pass sees every restored allocation. */
    @Bean
    SmartLifecycle jobSchedulerLifecycle(LocalScheduler scheduler) {
        return new SmartLifecycle() {
            @Override
            public void start() {
                scheduler.start();
            }

            @Override
            public void stop() {
                scheduler.close();
            }

            @Override
            public boolean isRunning() {
                return scheduler.running();
            }

            @Override
            public int getPhase() {
                return 10;
            }
        };
    }
}
