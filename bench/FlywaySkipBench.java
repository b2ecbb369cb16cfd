import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;

/**
 * One cold start's Flyway step on an existing, up-to-date state database, as the agent does it (Hikari pool over the H2
 * file, Flyway with Spring Boot's default location): {@code flyway} times {@code Flyway.migrate()} (scan, checksums,
 * validation; the build before), {@code strategy} times {@code CurrentSchemaMigrationStrategy.migrate} (the look at the
 * schema history, Flyway not run). The pool's first connection (H2 opening its file) and Flyway's configuration
 * ({@code load}) are timed apart: they cost the same either way. Run in a fresh JVM
 * per sample: see docs/benchmarks-flyway.md and bench/flyway-skip.sh.
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
            Flyway flyway = Flyway.configure().dataSource(ds).locations("classpath:db/migration").load();
            long t1 = System.nanoTime();
            if (mode.equals("flyway")) {
                flyway.migrate();
            } else {
                Class<?> c = Class.forName("dev.berth.state.CurrentSchemaMigrationStrategy");
                Constructor<?> k = c.getDeclaredConstructor();
                k.setAccessible(true);
                Method m = c.getMethod("migrate", Flyway.class);
                m.setAccessible(true);
                m.invoke(k.newInstance(), flyway);
            }
            long t2 = System.nanoTime();
            System.out.printf("%s open %.1f ms, load %.1f ms, migrate step %.1f ms%n", mode, (t0 - t) / 1e6, (t1 - t0) / 1e6,
                    (t2 - t1) / 1e6);
        }
    }
}
