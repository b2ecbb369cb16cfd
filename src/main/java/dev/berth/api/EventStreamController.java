package dev.berth.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.EventFilter;
import dev.berth.events.EventStream;
import dev.berth.events.EventStreamProperties;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/event/stream}: Nomad's event stream, newline-delimited JSON ({@code {"Index":n,"Events":[…]}} per
 * change, {@code {}} as heartbeat, the first one at once). Each stream runs on its request's virtual thread and reads
 * the change journal from its own cursor ({@link EventStream}); nothing is queued per subscriber.
 */
@RestController
class EventStreamController {

    private static final Logger log = LoggerFactory.getLogger(EventStreamController.class);
    private static final byte[] HEARTBEAT = "{}\n".getBytes(StandardCharsets.US_ASCII);

    private final ChangeFeed feed;
    private final EventStreamProperties properties;
    private final EventJson json;
    private final AtomicInteger open = new AtomicInteger();

    EventStreamController(ChangeFeed feed, EventStreamProperties properties, JsonMapper jsonMapper, AllocationJson allocations) {
        this.feed = feed;
        this.properties = properties;
        this.json = new EventJson(jsonMapper, allocations);
    }

    @GetMapping("/v1/event/stream")
    void stream(@RequestParam(required = false) String index, @RequestParam(required = false) List<String> topic,
            @RequestParam(required = false) String namespace, HttpServletResponse response) throws IOException {
        long from = parseIndex(index);
        EventFilter filter;
        try {
            filter = EventFilter.parse(topic, namespace, json::filterKeys);
        } catch (IllegalArgumentException e) {
            throw new ApiException.BadRequest("Invalid topic query: " + e.getMessage());
        }
        EventStream stream = new EventStream(feed, filter, from, properties.heartbeat(), properties.batch(),
                feed::released); // the agent stops: ChangeFeed.stop() releases every wait, and the stream ends
        response.setStatus(200);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-cache");
        OutputStream out = response.getOutputStream();
        open.incrementAndGet();
        try {
            EventStream.End end = stream.run(new EventStream.Sink() {
                @Override
                public void changes(List<Change> changes) throws IOException {
                    for (Change change : changes) {
                        out.write(json.frame(change));
                        out.write('\n');
                    }
                    out.flush();
                }

                @Override
                public void heartbeat() throws IOException {
                    out.write(HEARTBEAT);
                    out.flush();
                }
            });
            log.debug("event stream ended ({}) at index {}", end, stream.cursor());
        } finally {
            open.decrementAndGet();
        }
    }

    /** How many event streams are open. */
    int openStreams() {
        return open.get();
    }

    private static long parseIndex(String index) {
        if (index == null || index.isEmpty()) {
            return 0;
        }
        try {
            long value = Long.parseLong(index);
            if (value < 0) {
                throw new ApiException.BadRequest("Unable to parse index: index must not be negative: " + index);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new ApiException.BadRequest("Unable to parse index: strconv.Atoi: parsing \"" + index + "\": invalid syntax");
        }
    }
}
