import java.lang.reflect.Method;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

/**
 * One cold start's schema step on an existing, up-to-date state database, as the agent does it (Hikari pool over the H2
 * file, Flyway's default location): {@code flyway} builds Flyway ({@code configure().load()}) and times
 * {@code Flyway.migrate()} (scan, checksums, validation: what Spring Boot's auto-configuration did); {@code look} times
 * {@code state.SchemaLook} (the bundled script names listed, then one query of the schema history; no Flyway class is
 * touched): the listing (cold, and once more warm) and the query are printed apart. The pool's first connection (H2 opening its file) is timed
 * apart: it costs the same either way. Run in a fresh JVM per sample: see docs/benchmarks/state-store.md and
 * perf/flyway-skip.sh.
 */
public class FlywaySkipBench {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String url = "jdbc:h2:file:" + args[1] + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;LOB_TIMEOUT=10000;CACHE_SIZE=4096";
        try (HikariDataSource ds = new HikariDataSource()) {
            ds.setJdbcUrl(url);
            ds.setUsername("sa");
            ds.setPassword("");
            long t = System.nanoTime();
            ds.getConnection().close(); // the pool starts, H2 opens its file: the same in both modes
            long t0 = System.nanoTime();
            if (mode.equals("flyway")) {
                Flyway flyway = Flyway.configure().dataSource(ds).locations("classpath:db/migration").load();
                long t1 = System.nanoTime();
                flyway.migrate();
                long t2 = System.nanoTime();
                System.out.printf("flyway open %.1f ms, load %.1f ms, migrate step %.1f ms%n", (t0 - t) / 1e6,
                        (t1 - t0) / 1e6, (t2 - t0) / 1e6);
                return;
            }
            ClassLoader loader = FlywaySkipBench.class.getClassLoader();
            Class<?> look = Class.forName("dev.berth.state.SchemaLook");
            Method of = look.getDeclaredMethod("of", Environment.class);
            Method bundled = look.getDeclaredMethod("bundledVersions", ClassLoader.class);
            Method applied = look.getDeclaredMethod("appliedVersions", DataSource.class);
            for (Method m : new Method[] {of, bundled, applied}) {
                m.setAccessible(true);
            }
            Object settings = of.invoke(null, new StandardEnvironment());
            long t1 = System.nanoTime();
            Optional<?> scripts = (Optional<?>) bundled.invoke(settings, loader);
            long t2 = System.nanoTime();
            Optional<?> history = (Optional<?>) applied.invoke(settings, ds);
            long t3 = System.nanoTime();
            bundled.invoke(settings, loader);
            long t4 = System.nanoTime(); // the listing again: its classes loaded, the jars open, as in the agent
            if (scripts.isEmpty() || !scripts.equals(history)) {
                throw new IllegalStateException("not current: " + scripts + " vs " + history);
            }
            System.out.printf("look open %.1f ms, settings %.1f ms, list %.1f ms, query %.1f ms, list again %.2f ms, "
                    + "migrate step %.1f ms%n", (t0 - t) / 1e6, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
                    (t4 - t3) / 1e6, (t3 - t0) / 1e6);
        }
    }

}
