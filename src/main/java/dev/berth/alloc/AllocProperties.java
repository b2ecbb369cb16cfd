package dev.berth.alloc;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Allocation directory options ({@code berth.alloc.*}).
 *
 * @param secretsTmpfs mount a tmpfs on each task's {@code secrets/} and {@code private/} (as Nomad does) when the agent
 *                     runs as root on Linux; false keeps plain directories
 */
@ConfigurationProperties("berth.alloc")
public record AllocProperties(@DefaultValue("true") boolean secretsTmpfs) {
}
