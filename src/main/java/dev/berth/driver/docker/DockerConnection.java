package dev.berth.driver.docker;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import com.github.dockerjava.api.DockerClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's connections to the engine, made on first use: an agent with the docker driver disabled (the default)
 * never loads docker-java, its HTTP client or their JSON mapper (many classes, loaded at start-up otherwise).
 *
 * @param client    streaming calls: waits and followed logs (no response timeout)
 * @param calls     request/response calls, bounded by the engine's call timeout
 * @param health    pings, bounded by the ping timeout
 * @param ops       the engine operations built on {@code calls} and {@code client}
 * @param oomEvents the engine's OOM events, followed once a container is tracked
 */
record DockerConnection(DockerClient client, DockerClient calls, DockerClient health, ContainerEngine ops,
                        OomEvents oomEvents) {

    private static final Logger log = LoggerFactory.getLogger(DockerConnection.class);

    static DockerConnection open(DockerEngineProperties engine, Clock clock) {
        DockerClient client = DockerClients.create(engine.host(), Duration.ofSeconds(5), null);
        DockerClient calls = DockerClients.create(engine.host(), Duration.ofSeconds(5), engine.callTimeout());
        DockerClient health = DockerClients.create(engine.host(), engine.pingTimeout(), engine.pingTimeout());
        return new DockerConnection(client, calls, health, new ContainerEngine(calls, client, engine.host()),
                new OomEvents(client, clock.instant().getEpochSecond()));
    }

    void close() {
        oomEvents.close();
        for (DockerClient c : List.of(client, calls, health)) {
            try {
                c.close();
            } catch (IOException e) {
                log.debug("closing docker client: {}", e.toString());
            }
        }
    }

    /** Opens the connection on the first {@link #get()}; later calls return the same one. */
    static final class OnFirstUse {
        private final DockerEngineProperties engine;
        private final Clock clock;
        private DockerConnection connection;

        OnFirstUse(DockerEngineProperties engine, Clock clock) {
            this.engine = engine;
            this.clock = clock;
        }

        synchronized DockerConnection get() {
            if (connection == null) {
                connection = open(engine, clock);
            }
            return connection;
        }

        synchronized boolean opened() {
            return connection != null;
        }

        /** Runs {@code action} on the connection if one was opened; never opens one. */
        void ifOpen(Consumer<DockerConnection> action) {
            DockerConnection c;
            synchronized (this) {
                c = connection;
            }
            if (c != null) {
                action.accept(c);
            }
        }
    }
}
