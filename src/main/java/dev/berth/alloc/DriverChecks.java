package dev.berth.alloc;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.driver.DriverManager;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskDriver;

/** The submission checks that need the drivers: each task's driver exists, is healthy here, and accepts its config. */
final class DriverChecks {

    private static final Logger log = LoggerFactory.getLogger(AllocManager.class);

    private DriverChecks() {
    }

    static void validate(DriverManager drivers, AllocationSpec spec) throws SpecValidationException {
        if (spec.desiredTerminal()) {
            return; // a stop needs no healthy driver
        }
        TaskGroupSpec group = spec.group().orElseThrow();
        for (TaskSpec t : group.tasks()) {
            String field = "Job.TaskGroups[" + group.name() + "].Tasks[" + t.name() + "]";
            TaskDriver driver = drivers.driver(t.driver()).orElseThrow(() ->
                    new SpecValidationException(field + ".Driver", "Unknown driver \"" + t.driver() + "\""));
            HealthState health;
            try {
                health = driver.fingerprint().health();
            } catch (RuntimeException e) {
                health = HealthState.UNDETECTED;
            }
            if (health != HealthState.HEALTHY) {
                throw new SpecValidationException(field + ".Driver", "Driver \"" + t.driver() + "\" is "
                        + (health == HealthState.UNDETECTED ? "disabled or not detected" : "unhealthy") + " on this node");
            }
            try {
                driver.validate(t.config() == null ? Map.of() : t.config());
            } catch (TaskConfigValidationException e) {
                throw new SpecValidationException(field + ".Config" + (e.field() == null ? "" : "." + e.field()), e.getMessage());
            } catch (RuntimeException e) {
                // a driver's validation must refuse, never crash: whatever it threw, this config is not one it can run
                log.warn("driver {} failed validating a config; refusing it", t.driver(), e);
                throw new SpecValidationException(field + ".Config", "Invalid driver config: " + e);
            }
        }
    }
}
