package dev.berth.config;

import java.util.Objects;

/**
 * Start-up refused because the configuration would expose the agent without protection (a non-loopback bind
 * address with ACLs off) or the ACL settings cannot work (enabled without tokens). Carries the text that
 * {@link InsecureConfigurationFailureAnalyzer} shows the operator.
 */
public class InsecureConfigurationException extends RuntimeException {

    private final String action;

    public InsecureConfigurationException(String description, String action) {
        super(Objects.requireNonNull(description, "'description' must not be null"));
        this.action = Objects.requireNonNull(action, "'action' must not be null");
    }

    /** What the operator should change. */
    public String action() {
        return action;
    }
}
