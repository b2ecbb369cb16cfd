package dev.berth.state;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a start loads, seen by a class loader of its own (the test's class path, nothing shared with the test's
 * loader but the JDK): a new database loads Flyway; a restart on a current schema loads none of Flyway's classes but
 * {@code org.flywaydb.core.Flyway} itself, which Spring Boot's database-initializer detector names (loaded, never
 * initialised: its initialisation alone would load Flyway's logging classes).
 */
class StateSchemaClassLoadingTest {

    private static final String FLYWAY = "org.flywaydb.";
    private static final String BOOT_FLYWAY = "org.springframework.boot.flyway.";

    @Test
    void aRestartOnACurrentSchemaLoadsNoFlywayClass(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("berth") + ";DB_CLOSE_ON_EXIT=FALSE";

        Set<String> newDatabase = flywayClassesOfAStart(url);
        Set<String> restart = flywayClassesOfAStart(url);

        assertThat(newDatabase.stream().filter(name -> name.startsWith(FLYWAY))).hasSizeGreaterThan(100);
        assertThat(newDatabase).contains("org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration");
        assertThat(restart.stream().filter(name -> name.startsWith(FLYWAY))).containsExactly("org.flywaydb.core.Flyway");
        assertThat(restart).doesNotContain("org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                "org.springframework.boot.flyway.autoconfigure.FlywayProperties");
    }

    private static Set<String> flywayClassesOfAStart(String url) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (RecordingClassLoader loader = new RecordingClassLoader(classPath())) {
            thread.setContextClassLoader(loader);
            loader.loadClass(IsolatedSchemaStart.class.getName()).getMethod("run", String.class).invoke(null, url);
            Set<String> flyway = new TreeSet<>();
            loader.loaded.stream().filter(name -> name.startsWith(FLYWAY) || name.startsWith(BOOT_FLYWAY))
                    .forEach(flyway::add);
            return flyway;
        } catch (InvocationTargetException e) {
            throw new AssertionError("the isolated start failed", e.getCause());
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static URL[] classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(entry -> {
            try {
                return Path.of(entry).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }).toArray(URL[]::new);
    }

    /** Loads the class path itself (the JDK from the platform loader) and records every class it loads. */
    private static final class RecordingClassLoader extends URLClassLoader {

        final Set<String> loaded = new ConcurrentSkipListSet<>();

        RecordingClassLoader(URL[] urls) {
            super("isolated-start", urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            Class<?> type = super.loadClass(name, resolve);
            loaded.add(name);
            return type;
        }
    }
}
