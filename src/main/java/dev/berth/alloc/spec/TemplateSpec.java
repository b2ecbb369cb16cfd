package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One of a task's {@code template} blocks (Nomad's {@code Template}): what the {@code template} hook renders into the
 * task directory before the task starts and again when what it reads changes. Durations are nanoseconds, as Nomad
 * writes them. Nomad's defaults are filled here: change mode {@code restart}, splay 5s, perms {@code 0644}, delimiters
 * {@code {{ }}}.
 *
 * @param source        {@code source}: a file on the host to read the template from (relative paths: the task directory)
 * @param destination   {@code destination}: relative to the task directory
 * @param data          {@code data}: the template text itself
 * @param changeMode    {@code restart}, {@code signal}, {@code script} or {@code noop}
 * @param changeSignal  the signal for {@code signal}
 * @param changeScript  the script for {@code script}
 * @param splay         at most this long a random wait before the change mode applies
 * @param perms         the file's mode, octal text
 * @param uid           the file's owner (applied only when Berth runs as root); null keeps Berth's
 * @param gid           the file's group, likewise
 * @param envvars       {@code env = true}: the rendered {@code KEY=value} lines are added to the task's environment
 * @param errMissingKey {@code error_on_missing_key}: a key missing from a map fails the render
 * @param waitSpec      {@code wait {min max}}: how long changes must settle before a re-render
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TemplateSpec(@JsonProperty("SourcePath") String source,
                           @JsonProperty("DestPath") String destination,
                           @JsonProperty("EmbeddedTmpl") String data,
                           @JsonProperty("ChangeMode") String changeMode,
                           @JsonProperty("ChangeSignal") String changeSignal,
                           @JsonProperty("ChangeScript") ChangeScript changeScript,
                           @JsonProperty("Splay") Long splay,
                           @JsonProperty("Perms") String perms,
                           @JsonProperty("Uid") Integer uid,
                           @JsonProperty("Gid") Integer gid,
                           @JsonProperty("LeftDelim") String leftDelim,
                           @JsonProperty("RightDelim") String rightDelim,
                           @JsonProperty("Envvars") Boolean envvars,
                           @JsonProperty("ErrMissingKey") Boolean errMissingKey,
                           @JsonProperty("Wait") WaitSpec waitSpec) {

    public static final String RESTART = "restart";
    public static final String SIGNAL = "signal";
    public static final String SCRIPT = "script";
    public static final String NOOP = "noop";
    public static final List<String> CHANGE_MODES = List.of(NOOP, SIGNAL, RESTART, SCRIPT);

    /** Nomad's {@code ChangeScript}: a command run in the task, with a timeout; a failure may kill the task. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ChangeScript(@JsonProperty("Command") String command, @JsonProperty("Args") List<String> args,
                               @JsonProperty("Timeout") Long timeout, @JsonProperty("FailOnError") Boolean failOnError) {

        public ChangeScript {
            command = command == null ? "" : command;
            args = args == null ? List.of() : List.copyOf(args);
            timeout = timeout == null ? Duration.ofSeconds(5).toNanos() : timeout;
            failOnError = Boolean.TRUE.equals(failOnError);
        }
    }

    /** Nomad's {@code WaitConfig}: quiescence timers, nanoseconds; null when unset. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WaitSpec(@JsonProperty("Min") Long min, @JsonProperty("Max") Long max) {
    }

    public TemplateSpec {
        source = source == null ? "" : source;
        destination = destination == null ? "" : destination;
        data = data == null ? "" : data;
        changeMode = changeMode == null || changeMode.isEmpty() ? RESTART : changeMode;
        changeSignal = changeSignal == null ? "" : changeSignal;
        splay = splay == null ? Duration.ofSeconds(5).toNanos() : splay;
        perms = perms == null || perms.isEmpty() ? "0644" : perms;
        leftDelim = leftDelim == null || leftDelim.isEmpty() ? "{{" : leftDelim;
        rightDelim = rightDelim == null || rightDelim.isEmpty() ? "}}" : rightDelim;
        envvars = Boolean.TRUE.equals(envvars);
        errMissingKey = Boolean.TRUE.equals(errMissingKey);
    }

    @JsonIgnore
    public Duration splayDuration() {
        return Duration.ofNanos(splay);
    }

    /** The quiescence minimum; zero when unset (render at once). */
    @JsonIgnore
    public Duration waitMin() {
        return waitSpec == null || waitSpec.min() == null ? Duration.ZERO : Duration.ofNanos(waitSpec.min());
    }

    /** The quiescence maximum; at least the minimum (4 × min when unset, as consul-template does). */
    @JsonIgnore
    public Duration waitMax() {
        Duration min = waitMin();
        if (waitSpec == null || waitSpec.max() == null) {
            return min.multipliedBy(4);
        }
        Duration max = Duration.ofNanos(waitSpec.max());
        return max.compareTo(min) < 0 ? min : max;
    }
}
