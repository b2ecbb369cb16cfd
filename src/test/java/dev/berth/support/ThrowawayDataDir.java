package dev.berth.support;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

import dev.berth.host.Tmpfs;

/**
 * Test contexts that name a random data dir ({@code berth.data-dir=${java.io.tmpdir}/berth-...-it-${random.uuid}}, see
 * {@link AgentIntegrationTest}) get one data dir, removed when the context closes.
 *
 * <p>One dir: {@code ${random.uuid}} is a new value each time the property is resolved, so the state database (from
 * {@code spring.datasource.url}) and the alloc dirs (from the bound {@code berth.data-dir}) would land in different
 * dirs. As an environment post-processor (before the state database guard and any binding) this resolves the value
 * once and puts it first in the environment.
 *
 * <p>Removed: as an initializer this registers a disposable that Spring destroys after every bean of the context (it is
 * registered before any of them exists, and disposables are destroyed in reverse order), so the agent has stopped and
 * the database is closed when the dir goes. Mounts under it (tasks' tmpfs) are unmounted first; the removal never
 * follows a symbolic link and never crosses into a file system still mounted below the dir. A context that Spring's test
 * cache pauses is not closed, so its dir stays until the cache closes the context (at the latest when the JVM ends).
 * Registered in the test {@code META-INF/spring.factories}.
 */
public final class ThrowawayDataDir
        implements EnvironmentPostProcessor, ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

    static final String PROPERTY = "berth.data-dir";
    static final String SOURCE = "throwawayDataDir";

    @Override
    public int getOrder() {
        // after the config data, before StateDatabaseGuard (LOWEST_PRECEDENCE) reads spring.datasource.url
        return Ordered.LOWEST_PRECEDENCE - 100;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        for (PropertySource<?> source : env.getPropertySources()) {
            if (source.containsProperty(PROPERTY)) {
                if (source.getProperty(PROPERTY) instanceof String raw && raw.contains("${random.")) {
                    String dir = env.resolveRequiredPlaceholders(raw);
                    env.getPropertySources().addFirst(new MapPropertySource(SOURCE, Map.of(PROPERTY, dir)));
                }
                return; // the first source that has it wins
            }
        }
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (!(context.getEnvironment().getPropertySources().get(SOURCE) instanceof EnumerablePropertySource<?> pinned)
                || !(context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry)) {
            return;
        }
        Path dir = Path.of((String) pinned.getProperty(PROPERTY));
        registry.registerDisposableBean(SOURCE, () -> delete(dir));
    }

    /**
     * Removes {@code dir} and everything in it: unmounts what is mounted below first, deletes symbolic links as links,
     * and skips (leaves) whatever is still on another file system. Best effort: what cannot be removed is reported on
     * stderr, never thrown, so a context's close is not disturbed.
     */
    public static void delete(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Tmpfs.unmountUnder(dir);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            System.err.println("throwaway data dir " + dir + ": " + e.getMessage());
        }
        try {
            Object device = Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS);
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    // still a mount point (it could not be unmounted): never delete into another file system
                    return device.equals(Files.getAttribute(d, "unix:dev", LinkOption.NOFOLLOW_LINKS))
                            ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    try {
                        Files.deleteIfExists(d);
                    } catch (DirectoryNotEmptyException kept) {
                        System.err.println("throwaway data dir: kept " + d + " (a mount or files written meanwhile)");
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("throwaway data dir " + dir + " not removed: " + e);
        }
    }
}
