package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.NodeIdentity;

@Configuration(proxyBeanMethods = false)
class CgroupConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CgroupConfiguration.class);

    @Bean
    CgroupMounts cgroupMounts() {
        try {
            CgroupMounts mounts = CgroupMounts.parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
            log.info("cgroup {} detected (v1 {}, v2 {})", mounts.version(), mounts.v1().keySet(), mounts.v2Root());
            return mounts;
        } catch (IOException e) {
            log.warn("Cannot read /proc/self/mountinfo ({}); no task cgroups", e.toString());
            return CgroupMounts.none();
        }
    }

    // On shutdown the node's parent goes if no task cgroup is left (tasks keep running across agent restarts).
    @Bean(destroyMethod = "removeParentIfEmpty")
    CgroupManager cgroupManager(CgroupMounts mounts, NodeIdentity node) {
        Optional<AgentCgroup> agent = Optional.empty();
        try {
            agent = AgentCgroup.locate(mounts, Files.readAllLines(Path.of("/proc/self/cgroup")), ProcessHandle.current().pid());
        } catch (IOException e) {
            log.warn("Cannot read /proc/self/cgroup ({}); the agent's own cgroup is unknown", e.toString());
        }
        if (mounts.version() == CgroupVersion.V2) {
            log.info("The agent's own cgroup: {}", agent.map(a -> a.own() + " (cgroup namespace root " + a.namespaceRoot() + ")")
                    .orElse("not found in " + mounts.v2Root()));
        }
        return new CgroupManager(mounts, node, CgroupManager.REAL_SLEEPER, agent);
    }
}
