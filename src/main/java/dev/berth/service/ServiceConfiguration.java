package dev.berth.service;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.AllocRunners;
import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.host.cgroup.CgroupManager;

/** Wires the check scheduler, the registry's hooks and their order among the task and alloc hooks. */
@Configuration(proxyBeanMethods = false)
class ServiceConfiguration {

    @Bean
    ServiceChecks serviceChecks(ServiceRegistry registry, AllocRunners runners, NodeRegistry node, BerthProperties props,
                                BerthMetrics metrics, Clock clock, ChecksProperties checks) {
        return new ServiceChecks(registry, runners, node, props.datacenter(), metrics, clock, checks.maxConcurrent());
    }

    /** After the stats hook (100): a check may look at a started task. */
    @Bean
    @Order(200)
    ServiceTaskHook serviceTaskHook(ServiceChecks checks, ObjectProvider<AllocRunnerContext> runnerContext, CgroupManager cgroups) {
        return new ServiceTaskHook(checks, runnerContext, cgroups);
    }

    /** Last of the alloc hooks: its prerun runs once the alloc directory exists. */
    @Bean
    @Order(1000)
    ServiceAllocHook serviceAllocHook(ServiceChecks checks, ObjectProvider<AllocRunnerContext> runnerContext) {
        return new ServiceAllocHook(checks, runnerContext);
    }
}
