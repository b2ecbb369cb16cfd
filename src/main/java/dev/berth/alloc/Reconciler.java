package dev.berth.alloc;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverManager;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

/**
 * Crash reconciliation at start-up (issue 7), before any alloc is restored: what runs on the host is compared with what
 * the state database says. Every live task process (found by its driver, {@link TaskDriver#liveTasks}) that no persisted
 * handle accounts for is killed: it was started just before a crash (its handle never written), belongs to an allocation
 * that was destroyed, or to a state database that was lost. The restore then starts such a task again where its
 * allocation still wants it, so no task ever runs twice and none is left running unknown.
 *
 * <p>A process is identified by pid and start ticks together (a recycled pid has other start ticks).
 */
final class Reconciler {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** What reconciliation did. */
    record Report(int live, int known, int killed, int failed) {
    }

    private final AllocStateStore store;
    private final DriverManager drivers;

    Reconciler(AllocStateStore store, DriverManager drivers) {
        this.store = store;
        this.drivers = drivers;
    }

    Report reconcile() {
        Set<String> known = knownProcesses();
        int live = 0;
        int kept = 0;
        int killed = 0;
        int failed = 0;
        for (TaskDriver driver : drivers.all()) {
            List<TaskHandle> found;
            try {
                found = driver.liveTasks();
            } catch (RuntimeException e) {
                log.error("could not list live tasks of driver {}; unknown tasks of it may keep running", driver.name(), e);
                continue;
            }
            for (TaskHandle h : found) {
                live++;
                if (known.contains(key(driver.name(), h))) {
                    kept++;
                    continue;
                }
                try {
                    TaskHandle attached = driver.recover(h);
                    driver.destroy(attached, true);
                    killed++;
                    log.warn("killed a task process no allocation accounts for: driver={} pid={} exitFile={}", driver.name(),
                            h.driverState().get("pid"), h.driverState().get("exit_file"));
                } catch (Exception e) {
                    failed++;
                    log.error("could not kill unknown task process: driver={} pid={}", driver.name(), h.driverState().get("pid"), e);
                }
            }
        }
        return new Report(live, kept, killed, failed);
    }

    /** {@code driver:pid:startTicks} of every persisted handle of a stored allocation. */
    private Set<String> knownProcesses() {
        Set<String> known = new HashSet<>();
        for (TaskLocalState local : store.allTaskLocalStates().values()) {
            if (local.handle() != null) {
                known.add(key(local.handle().driver(), local.handle()));
            }
        }
        return known;
    }

    private static String key(String driver, TaskHandle h) {
        return driver + ":" + h.driverState().getOrDefault("pid", "") + ":" + h.driverState().getOrDefault("start_ticks", "");
    }
}
