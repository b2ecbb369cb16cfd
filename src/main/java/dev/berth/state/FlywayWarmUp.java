package dev.berth.state;

import java.nio.file.Files;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Starts {@link FlywayRehearsal} as soon as the environment is ready when the state database does not exist yet (no
 * {@code .mv.db} file at {@code spring.datasource.url}, after {@link StateDatabaseGuard} has looked at it): that start
 * will run Flyway ({@link StateSchema}), whose classes are not in the AOT cache, and the context has most of a second
 * of work to do before it gets there; only when a processor is spare ({@link CpuHeadroom}), since otherwise the
 * rehearsal takes its time from the start itself. The rehearsal is handed to {@link StateSchema} as a bean of the agent's context,
 * which waits for it before migrating. A restart (the database exists), a database that is not an H2 file, or
 * {@code spring.flyway.enabled=false} starts nothing and loads no Flyway class. Registered in
 * {@code META-INF/spring.factories}.
 */
public final class FlywayWarmUp implements SmartApplicationListener {

    private static final Log LOG = LogFactory.getLog(FlywayWarmUp.class);

    /** Spring's switches that end or checkpoint the JVM at the first context refresh (DefaultLifecycleProcessor). */
    static final String EXIT_ON_REFRESH = "spring.context.exit";
    static final String CHECKPOINT_ON_REFRESH = "spring.context.checkpoint";

    private final Supplier<Optional<CpuHeadroom.Sample>> sampler;
    private final Function<Optional<CpuHeadroom.Sample>, CpuHeadroom> headroom;
    private Optional<CpuHeadroom.Sample> first = Optional.empty();
    private FlywayRehearsal rehearsal;

    public FlywayWarmUp() {
        this(CpuHeadroom.Sample::take, CpuHeadroom::since);
    }

    /** With the first sample of the processor counters and the headroom since it as given. */
    FlywayWarmUp(Supplier<Optional<CpuHeadroom.Sample>> sampler, Function<Optional<CpuHeadroom.Sample>, CpuHeadroom> headroom) {
        this.sampler = sampler;
        this.headroom = headroom;
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return ApplicationStartingEvent.class.isAssignableFrom(eventType)
                || ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(eventType)
                || ApplicationPreparedEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public int getOrder() {
        // after the environment post-processors (the guard may have moved a damaged database away)
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationStartingEvent) {
            first = sampler.get(); // what the host does while the environment is prepared tells whether it is busy
        } else if (event instanceof ApplicationEnvironmentPreparedEvent prepared && rehearsal == null
                && newStateDatabase(prepared.getEnvironment())) {
            CpuHeadroom now = headroom.apply(first);
            if (now.spare()) {
                rehearsal = FlywayRehearsal.start(prepared.getSpringApplication().getClassLoader());
            }
            if (LOG.isDebugEnabled()) {
                LOG.debug("New state database: Flyway " + (rehearsal != null ? "rehearsed" : "not rehearsed") + " ("
                        + now + ")");
            }
        } else if (event instanceof ApplicationPreparedEvent prepared && rehearsal != null) {
            prepared.getApplicationContext().getBeanFactory().registerSingleton(FlywayRehearsal.BEAN_NAME, rehearsal);
            rehearsal = null;
        }
    }

    /**
     * Whether this start will create the state database and Flyway will run. Not in a start that ends itself at the
     * first context refresh ({@code -Dspring.context.exit=onRefresh} as in {@code bin/berth train}, or a CRaC
     * checkpoint): the rehearsal's own short-lived context would be that refresh, before the database exists.
     */
    static boolean newStateDatabase(Environment environment) {
        Binder binder = Binder.get(environment);
        if (!binder.bind("spring.flyway.enabled", Boolean.class).orElse(true)
                || environment.containsProperty(EXIT_ON_REFRESH) || environment.containsProperty(CHECKPOINT_ON_REFRESH)) {
            return false;
        }
        String url = environment.getProperty("spring.datasource.url");
        return StateDatabaseGuard.isH2File(url) && !Files.exists(StateDatabaseGuard.databaseFile(url));
    }
}
