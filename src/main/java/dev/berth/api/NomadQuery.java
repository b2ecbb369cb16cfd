package dev.berth.api;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

import dev.berth.driver.GoDuration;
import dev.berth.events.BlockingQueries;
import dev.berth.events.Change;
import dev.berth.events.Indexed;

/**
 * Nomad's query conventions for every read a Nomad client may block on: {@code ?index=N&wait=D} (a Go duration:
 * {@code 5s}, {@code 1m30s}, {@code 250ms}; default 5 m, capped at 10 m, plus Nomad's jitter) and the response headers
 * {@code X-Nomad-Index}, {@code X-Nomad-KnownLeader: true} and {@code X-Nomad-LastContact: 0} (one agent is its own
 * leader). Controllers return the {@link CompletableFuture} this gives: no request thread waits, and the headers are set
 * on the async response. Use it for any endpoint Nomad makes blocking (jobs and evaluations too).
 */
final class NomadQuery {

    static final String INDEX = "X-Nomad-Index";
    static final String KNOWN_LEADER = "X-Nomad-KnownLeader";
    static final String LAST_CONTACT = "X-Nomad-LastContact";

    private NomadQuery() {
    }

    /** The query's {@code index} (0 when absent). A value that is not a number is Nomad's 400. */
    static long index(HttpServletRequest request) {
        String raw = request.getParameter("index");
        if (raw == null || raw.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(raw);
        } catch (NumberFormatException e) {
            throw new ApiException.BadRequest("Invalid index: " + raw);
        }
    }

    /**
     * The query's {@code wait} (any Go duration: {@code 5s}, {@code 1m30s}, {@code 250ms}), or null when absent. Nomad's
     * 400 text for one that is not a Go duration, or is negative.
     */
    static Duration waitParam(HttpServletRequest request) {
        String raw = request.getParameter("wait");
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            Duration d = GoDuration.parse(raw);
            if (!d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException malformed) {
            // Nomad's answer names no reason either
        }
        throw new ApiException.BadRequest("Invalid wait time");
    }

    /** The Nomad query headers for a response answering at {@code index} (at least 1, as Nomad never sends 0). */
    static HttpHeaders headers(long index) {
        HttpHeaders h = new HttpHeaders();
        h.set(INDEX, Long.toString(Math.max(1, index)));
        h.set(KNOWN_LEADER, "true");
        h.set(LAST_CONTACT, "0");
        return h;
    }

    static <T> ResponseEntity<T> ok(T body, long index) {
        return ResponseEntity.ok().headers(headers(index)).body(body);
    }

    /**
     * A blocking read: answers at once without {@code index}, else as soon as a change matching {@code watch} moves
     * {@code read}'s index past it, or when the wait ends. {@code render} turns the value into the body.
     */
    static <T, B> CompletableFuture<ResponseEntity<B>> blocking(BlockingQueries queries, HttpServletRequest request,
            Predicate<Change> watch, Supplier<Indexed<T>> read, Function<T, B> render) {
        long minIndex = index(request);
        Duration wait = waitParam(request);
        return queries.query(minIndex, wait, watch, read).thenApply(v -> ok(render.apply(v.value()), v.index()));
    }
}
