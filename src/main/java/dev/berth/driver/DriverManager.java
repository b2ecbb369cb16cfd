package dev.berth.driver;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/** The registry of task drivers known to this agent, by name. Drivers are Spring beans implementing {@link TaskDriver}. */
@Component
public class DriverManager {

    private final Map<String, TaskDriver> drivers;

    public DriverManager(List<TaskDriver> drivers) {
        Map<String, TaskDriver> byName = new LinkedHashMap<>();
        for (TaskDriver driver : drivers) {
            if (byName.putIfAbsent(driver.name(), driver) != null) {
                throw new IllegalStateException("two task drivers are named '" + driver.name() + "'");
            }
        }
        this.drivers = Map.copyOf(byName);
    }

    /** The driver with this name, if one exists (it may still be disabled or unhealthy). */
    public Optional<TaskDriver> driver(String name) {
        return Optional.ofNullable(drivers.get(name));
    }

    public Collection<TaskDriver> all() {
        return drivers.values();
    }
}
