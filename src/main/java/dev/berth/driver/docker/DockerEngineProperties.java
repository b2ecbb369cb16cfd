package dev.berth.driver.docker;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where and how the docker driver talks to the engine ({@code berth.drivers.docker.*}; {@code enabled} and
 * {@code pull} live in {@link dev.berth.config.BerthProperties.Docker}).
 *
 * @param host              engine endpoint, e.g. {@code unix:///var/run/docker.sock} or {@code tcp://127.0.0.1:2375}
 * @param fingerprintPeriod how often the engine is pinged for the driver's health
 * @param pingTimeout       how long one health ping may take before the engine counts as unreachable
 * @param callTimeout       how long one request/response call (inspect, create, start, kill, remove, list) may wait for
 *                          the engine's answer: a wedged engine fails the call (a recoverable {@code Driver Failure})
 *                          instead of hanging the task's runner; waits, followed logs and pulls are not bounded by it
 */
@ConfigurationProperties("berth.drivers.docker")
public record DockerEngineProperties(
        @DefaultValue("unix:///var/run/docker.sock") String host,
        @DefaultValue("5s") Duration fingerprintPeriod,
        @DefaultValue("2s") Duration pingTimeout,
        @DefaultValue("60s") Duration callTimeout) {
}
