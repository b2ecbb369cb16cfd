package dev.berth.driver;

/** Health of a task driver as reported by its fingerprint. */
public enum HealthState {
    UNDETECTED, UNHEALTHY, HEALTHY
}
