package dev.berth.config;

import java.util.Objects;

/** Start-up refused because of a configuration mistake; reported as one Description + Action by its failure analyzer. */
public class InvalidConfigurationException extends RuntimeException {

    private final String action;

    public InvalidConfigurationException(String description, String action) {
        super(description);
        this.action = Objects.requireNonNull(action, "'action' must not be null");
    }

    public String action() {
        return action;
    }
}
