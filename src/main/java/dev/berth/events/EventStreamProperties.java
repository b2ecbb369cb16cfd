package dev.berth.events;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Event stream options ({@code berth.events.*}).
 *
 * @param heartbeat how often an idle stream sends Nomad's {@code {}} heartbeat (Nomad's server uses 30 s; 10 s keeps
 *                  proxies with a short idle timeout from cutting a quiet stream)
 * @param batch     how many changes a stream reads from the journal at once
 */
@ConfigurationProperties("berth.events")
public record EventStreamProperties(@DefaultValue("10s") Duration heartbeat, @DefaultValue("64") int batch) {

    public EventStreamProperties {
        if (heartbeat == null || heartbeat.isZero() || heartbeat.isNegative()) {
            throw new IllegalArgumentException("berth.events.heartbeat must be positive");
        }
        if (batch < 1) {
            throw new IllegalArgumentException("berth.events.batch must be positive");
        }
    }
}
