package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
        return new CgroupManager(mounts, node, CgroupManager.REAL_SLEEPER);
    }
}
