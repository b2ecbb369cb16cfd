package dev.berth.state;

import org.flywaydb.core.api.logging.Log;
import org.flywaydb.core.api.logging.LogCreator;

/**
 * Flyway's logger for {@link FlywayRehearsal}: a rehearsal on an in-memory database is not something to report.
 * Flyway instantiates it by name ({@code spring.flyway.loggers}); named, not referenced, elsewhere, so a start that
 * runs no rehearsal loads no Flyway class because of it.
 */
public final class SilentFlywayLog implements LogCreator, Log {

    /** Its name as {@code spring.flyway.loggers} gives it. */
    static final String CLASS_NAME = "dev.berth.state.SilentFlywayLog";

    @Override
    public Log createLogger(Class<?> clazz) {
        return this;
    }

    @Override
    public void debug(String message) {
    }

    @Override
    public void info(String message) {
    }

    @Override
    public void warn(String message) {
    }

    @Override
    public void error(String message) {
    }

    @Override
    public void error(String message, Exception e) {
    }

    @Override
    public void notice(String message) {
    }
}
