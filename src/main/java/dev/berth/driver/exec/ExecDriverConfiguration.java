package dev.berth.driver.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthProperties;
import dev.berth.config.CpuClock;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.SwapBudget;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import oshi.SystemInfo;

/**
 * Registers {@code exec}; undetected unless {@code berth.drivers.exec.enabled=true}. Its processes run through a
 * private raw_exec instance (always enabled, not a driver bean of its own) whose exit files live under
 * {@code <data-dir>/drivers/exec}. {@code berth.drivers.exec.pids-limit} (default 4096) caps processes per task. A task's
 * {@code cpu_hard_limit} quota is computed from the cores' frequency as the CPU fingerprint reads it.
 * {@code berth.drivers.exec.swap} ({@code none}, default, or {@code limited}) decides whether tasks may swap.
 */
@Configuration(proxyBeanMethods = false)
class ExecDriverConfiguration {

    @Bean
    ExecDriver execDriver(BerthProperties properties, Clock clock, CgroupManager cgroups, ObjectProvider<SystemInfo> systemInfo) {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("exec-watch-", 0).factory());
        poller.setRemoveOnCancelPolicy(true);
        RawExecDriver processes = new RawExecDriver(true, clock, properties.dataDir().resolve("drivers").resolve("exec"), poller,
                Duration.ofMillis(250), TaskOutputs.FIFOS_OR_FILES, null,
                properties.drivers().rawExec().launcher() == BerthProperties.RawExec.Launcher.POSIX_SPAWN);
        return new ExecDriver(properties.drivers().exec().enabled(), processes, cgroups, properties.drivers().exec().pidsLimit(),
                mhzPerCore(systemInfo), swap(properties.drivers().exec().swap()));
    }

    /** {@code limited}: the host's memory and swap totals, read once (a budget is a share of the swap there is). */
    private static SwapBudget swap(BerthProperties.Exec.Swap setting) {
        if (setting != BerthProperties.Exec.Swap.LIMITED) {
            return SwapBudget.OFF;
        }
        try {
            return SwapBudget.limited(Path.of("/proc/meminfo"));
        } catch (IOException e) {
            throw new UncheckedIOException("berth.drivers.exec.swap=limited needs the host's /proc/meminfo", e);
        }
    }

    /** The cores' frequency as the CPU fingerprint reads it; Nomad's 1,000 MHz when it cannot be read. */
    private static double mhzPerCore(ObjectProvider<SystemInfo> systemInfo) {
        double mhz = CpuClock.mhzPerCore(systemInfo.getIfAvailable(SystemInfo::new).getHardware().getProcessor());
        return mhz > 0 ? mhz : 1_000;
    }
}
