package dev.berth.config;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The agent's own log for {@code /v1/agent/monitor}: an appender on the root logger hands every event to the
 * subscribers whose level it reaches, formatted as Nomad's agent log lines ({@code 2026-01-02T03:04:05.678Z [INFO]
 * logger: message}) or, with JSON, as hclog's JSON lines ({@code @level}, {@code @message}, {@code @module},
 * {@code @timestamp}). A subscriber's queue is bounded: a reader that cannot keep up loses lines (counted), as Nomad's
 * monitor drops them, and the agent never blocks on a slow reader.
 */
@Component
public class LogMonitor {

    /** Lines a subscriber may have queued before further lines are dropped. */
    static final int QUEUE = 512;

    private static final String APPENDER = "berth-monitor";

    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();

    public LogMonitor() {
        attach();
    }

    /**
     * Puts this monitor's appender on the root logger. Done again at every subscription: a logging re-initialisation
     * (another application context in the same JVM) resets Logback and removes appenders.
     */
    private synchronized void attach() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        var existing = root.getAppender(APPENDER);
        if (existing instanceof MonitorAppender mine && mine.owner() == this) {
            return;
        }
        MonitorAppender appender = new MonitorAppender(this);
        appender.setName(APPENDER);
        appender.setContext(context);
        appender.start();
        if (existing != null) {
            // another monitor's (an earlier context): chain to it so both keep their readers
            appender.next = existing;
            root.detachAppender(existing);
        }
        root.addAppender(appender);
    }

    private static final class MonitorAppender extends AppenderBase<ILoggingEvent> {
        private final LogMonitor owner;
        private volatile ch.qos.logback.core.Appender<ILoggingEvent> next;

        MonitorAppender(LogMonitor owner) {
            this.owner = owner;
        }

        LogMonitor owner() {
            return owner;
        }

        @Override
        protected void append(ILoggingEvent event) {
            owner.deliver(event);
            var chained = next;
            if (chained != null) {
                chained.doAppend(event);
            }
        }
    }

    /** Nomad's level names, lower-case; null when {@code name} is none of them. */
    public static Level level(String name) {
        return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
            case "trace" -> Level.TRACE;
            case "debug" -> Level.DEBUG;
            case "info" -> Level.INFO;
            case "warn" -> Level.WARN;
            case "error" -> Level.ERROR;
            default -> null;
        };
    }

    /** Subscribes at {@code level}; close the subscription to end it. */
    public Subscription subscribe(Level level, boolean json) {
        attach();
        Subscription s = new Subscription(level, json);
        subscriptions.add(s);
        return s;
    }

    private void deliver(ILoggingEvent event) {
        for (Subscription s : subscriptions) {
            if (event.getLevel().isGreaterOrEqual(s.level)) {
                if (!s.lines.offer(s.json ? json(event) : plain(event))) {
                    s.dropped.incrementAndGet();
                }
            }
        }
    }

    static String plain(ILoggingEvent e) {
        String level = e.getLevel().toString();
        return Instant.ofEpochMilli(e.getTimeStamp()) + " [" + level + "]" + " ".repeat(Math.max(1, 6 - level.length()))
                + shortName(e.getLoggerName()) + ": " + e.getFormattedMessage() + "\n";
    }

    static String json(ILoggingEvent e) {
        return "{\"@level\":\"" + e.getLevel().toString().toLowerCase(Locale.ROOT) + "\",\"@message\":" + quote(e.getFormattedMessage())
                + ",\"@module\":" + quote(shortName(e.getLoggerName())) + ",\"@timestamp\":\"" + Instant.ofEpochMilli(e.getTimeStamp())
                + "\"}\n";
    }

    private static String shortName(String logger) {
        return logger == null ? "" : logger.substring(logger.lastIndexOf('.') + 1);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : (s == null ? "" : s).toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** One reader of the log. */
    public final class Subscription implements AutoCloseable {

        private final Level level;
        private final boolean json;
        private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(QUEUE);
        private final AtomicLong dropped = new AtomicLong();

        private Subscription(Level level, boolean json) {
            this.level = level;
            this.json = json;
        }

        /** The queued lines; take from it. */
        public BlockingQueue<String> lines() {
            return lines;
        }

        /** Lines lost since the last call because the reader was too slow. */
        public long takeDropped() {
            return dropped.getAndSet(0);
        }

        @Override
        public void close() {
            subscriptions.remove(this);
        }
    }
}
