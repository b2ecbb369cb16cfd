package dev.berth.driver.rawexec;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthProperties;
import dev.berth.host.cgroup.CgroupManager;

/** Registers raw_exec; undetected unless {@code berth.drivers.raw-exec.enabled=true}. Exit files live under the data dir. */
@Configuration(proxyBeanMethods = false)
class RawExecDriverConfiguration {

    @Bean
    RawExecDriver rawExecDriver(BerthProperties properties, Clock clock, CgroupManager cgroups) {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1,
                Thread.ofVirtual().name("raw-exec-watch-", 0).factory());
        poller.setRemoveOnCancelPolicy(true);
        return new RawExecDriver(properties.drivers().rawExec().enabled(), clock,
                properties.dataDir().resolve("drivers").resolve("raw_exec"), poller, Duration.ofMillis(250),
                TaskOutputs.FIFOS_OR_FILES, cgroups,
                properties.drivers().rawExec().launcher() == BerthProperties.RawExec.Launcher.POSIX_SPAWN);
    }
}
