package dev.berth.events;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Event stream options ({@code berth.events.*}).
 *
 * @param heartbeat how often an idle stream sends Nomad's {@code {}} heartbeat (Nomad's server uses 30 s; 10 s keeps
 *                  proxies with a short idle timeout from cutting a quiet stream)
 * @param batch      how many changes a stream reads from the journal at once
 * @param bufferSize how many recent changes the {@link ChangeFeed}'s journal keeps for event-stream replay and
 *                   blocking queries (Nomad's server option {@code event_buffer_size}, 100 by default there): each held
 *                   change keeps the object as it was after the change, so this bounds what the journal holds on the
 *                   heap once the node is quiet again
 */
@ConfigurationProperties("berth.events")
public record EventStreamProperties(@DefaultValue("10s") Duration heartbeat, @DefaultValue("64") int batch,
        @DefaultValue("" + ChangeFeed.DEFAULT_CAPACITY) int bufferSize) {

    public EventStreamProperties {
        PropertyChecks.positive("berth.events.heartbeat", heartbeat);
        PropertyChecks.atLeast("berth.events.batch", batch, 1);
        PropertyChecks.atLeast("berth.events.buffer-size", bufferSize, 1);
    }
}
