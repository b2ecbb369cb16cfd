package dev.berth.config;

import java.util.Comparator;
import java.util.List;
import java.util.stream.StreamSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * With {@code -Dberth.startup-timeline=true} (set before the context starts, see {@code Application}), logs the
 * slowest start-up steps (bean instantiations, context phases) once the agent is ready: what runs before health, as
 * measured in docs/benchmarks/startup.md. Off by default: recording costs memory and a little time.
 */
@Component
public class StartupTimeline implements ApplicationListener<ApplicationReadyEvent> {

    public static final String PROPERTY = "berth.startup-timeline";
    public static final int CAPACITY = 20_000;
    /** How many steps are logged: {@code -Dberth.startup-timeline.shown=N}, 40 by default. */
    private static final int SHOWN = Integer.getInteger(PROPERTY + ".shown", 40);
    private static final Logger log = LoggerFactory.getLogger(StartupTimeline.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (!(event.getApplicationContext().getApplicationStartup() instanceof BufferingApplicationStartup buffering)) {
            return;
        }
        List<TimelineEvent> events = buffering.getBufferedTimeline().getEvents();
        StringBuilder out = new StringBuilder("slowest start-up steps (including their nested steps):");
        events.stream().sorted(Comparator.comparing(TimelineEvent::getDuration).reversed()).limit(SHOWN)
                .forEach(e -> out.append(String.format("%n  %6d ms  %s %s", e.getDuration().toMillis(),
                        e.getStartupStep().getName(), tags(e))));
        log.info("{}", out);
    }

    private static String tags(TimelineEvent event) {
        return StreamSupport.stream(event.getStartupStep().getTags().spliterator(), false)
                .map(tag -> tag.getKey() + "=" + tag.getValue()).toList().toString();
    }
}
