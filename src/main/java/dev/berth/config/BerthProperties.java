package dev.berth.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Everything an operator configures under {@code berth.*}. These names are the contract that the tests,
 * the shipped {@code application.yml} and the Helm chart use.
 *
 * @param dataDir   where the H2 state database and the allocation directories live
 * @param name      node name (defaults to the host name when empty)
 * @param datacenter datacenter the node belongs to
 * @param nodeClass  operator-chosen class of the node
 * @param meta       free-form node metadata
 * @param telemetry  stats collection settings
 * @param metrics    Prometheus exposition settings
 * @param drivers    which task drivers are enabled
 * @param acl        access control
 * @param client     allocation-runtime limits
 * @param heapTrim   whether the agent returns unused heap to the OS after its garbage collections ({@link HeapTrimmer};
 *                   nothing to do under collectors that shrink the heap themselves)
 */
@ConfigurationProperties("berth")
public record BerthProperties(
        @DefaultValue("./data") Path dataDir,
        @DefaultValue("") String name,
        @DefaultValue("dc1") String datacenter,
        @DefaultValue("") String nodeClass,
        Map<String, String> meta,
        @DefaultValue Telemetry telemetry,
        @DefaultValue Metrics metrics,
        @DefaultValue Drivers drivers,
        @DefaultValue Acl acl,
        @DefaultValue Client client,
        @DefaultValue("true") boolean heapTrim) {

    public BerthProperties {
        PropertyChecks.required("berth.data-dir", dataDir);
        PropertyChecks.notBlank("berth.datacenter", datacenter);
        meta = meta == null ? Map.of() : Map.copyOf(meta);
    }

    /** Directory that holds one sub-directory per allocation. */
    public Path allocDir() {
        return dataDir.resolve("alloc");
    }

    /**
     * @param collectionInterval          how often host and task stats are sampled
     * @param publishAllocationMetrics    whether per-task gauges are exported
     * @param allocationLabels            whether per-task series carry {@code alloc_id}; when false they are
     *                                    aggregated per job/task group/task to bound cardinality
     */
    public record Telemetry(
            @DefaultValue("1s") Duration collectionInterval,
            @DefaultValue("true") boolean publishAllocationMetrics,
            @DefaultValue("true") boolean allocationLabels) {

        public Telemetry {
            PropertyChecks.positive("berth.telemetry.collection-interval", collectionInterval);
        }
    }

    /** @param naming {@code prometheus} (default, {@code berth_} names in base units) or {@code nomad} (Nomad's names). */
    public record Metrics(@DefaultValue("prometheus") MetricsNaming naming) {

        public Metrics {
            PropertyChecks.required("berth.metrics.naming", naming);
        }
    }

    public record Drivers(
            @DefaultValue RawExec rawExec,
            @DefaultValue Exec exec,
            @DefaultValue Docker docker,
            @DefaultValue Driver mock) {
    }

    /** @param enabled whether the driver is offered to tasks (undetected when off). */
    public record Driver(@DefaultValue("false") boolean enabled) {
    }

    /**
     * @param enabled  whether raw_exec is offered to tasks (undetected when off)
     * @param launcher how tasks are started: {@code posix-spawn} (default; exits seen through pidfds, falls back to
     *                 {@code process-builder} where the C library or kernel lacks what it needs) or {@code process-builder}
     */
    public record RawExec(@DefaultValue("false") boolean enabled, @DefaultValue("posix-spawn") Launcher launcher) {

        public enum Launcher { POSIX_SPAWN, PROCESS_BUILDER }
    }

    /**
     * @param enabled   whether the exec driver is offered to tasks (undetected when off)
     * @param pidsLimit default pids limit of an exec task's cgroup (a task's {@code pids_limit} overrides it)
     * @param swap      whether exec tasks may swap: {@code none} (default, as Nomad) or {@code limited} (a budget per task,
     *                  proportional to its memory as Kubernetes' LimitedSwap, or its {@code swap_mb})
     */
    public record Exec(@DefaultValue("false") boolean enabled, @DefaultValue("4096") long pidsLimit, @DefaultValue("none") Swap swap) {

        /** The node's swap setting for exec tasks. */
        public enum Swap { NONE, LIMITED }
    }

    /**
     * @param enabled whether the docker driver is offered
     * @param pull    image pull policy: {@code missing} pulls absent images, {@code never} never contacts a registry
     */
    public record Docker(@DefaultValue("false") boolean enabled, @DefaultValue("missing") String pull) {

        public Docker {
            PropertyChecks.notBlank("berth.drivers.docker.pull", pull);
        }
    }

    /**
     * @param enabled        whether requests need a token; off is only allowed on a loopback bind address
     * @param tokens         the accepted tokens
     * @param anonymousMetrics whether {@code /actuator/prometheus}, {@code /v1/metrics} and health are readable without a token
     */
    public record Acl(
            @DefaultValue("false") boolean enabled,
            List<Token> tokens,
            @DefaultValue("true") boolean anonymousMetrics) {

        public Acl {
            tokens = tokens == null ? List.of() : List.copyOf(tokens);
            for (int i = 0; i < tokens.size(); i++) {
                // checked here, not in Token, which does not know its index in the list
                PropertyChecks.notBlank("berth.acl.tokens[" + i + "].secret", tokens.get(i).secret());
                PropertyChecks.required("berth.acl.tokens[" + i + "].scope", tokens.get(i).scope());
            }
        }
    }

    /**
     * @param name   a label for logs
     * @param secret the bearer secret
     * @param scope  {@code read} or {@code write} (write implies read)
     */
    public record Token(@DefaultValue("") String name, String secret, @DefaultValue("read") TokenScope scope) {
    }

    public enum TokenScope { READ, WRITE }

    /**
     * @param maxKillTimeout  upper bound for any task's kill timeout
     * @param minDynamicPort  lowest port handed out as a dynamic port
     * @param maxDynamicPort  highest port handed out as a dynamic port
     * @param reservableCores the cores tasks may run on and reserve, in the kernel's list format ({@code 0-3,8}), as
     *                        Nomad's {@code reservable_cores}; empty: every core the agent may run on
     */
    public record Client(
            @DefaultValue("30s") Duration maxKillTimeout,
            @DefaultValue("20000") int minDynamicPort,
            @DefaultValue("32000") int maxDynamicPort,
            @DefaultValue("") String reservableCores) {

        public Client {
            PropertyChecks.required("berth.client.max-kill-timeout", maxKillTimeout);
            if (minDynamicPort < 1 || maxDynamicPort > 65535 || minDynamicPort > maxDynamicPort) {
                throw new IllegalArgumentException("'berth.client.min-dynamic-port'/'max-dynamic-port' must be 1..65535 with min <= max, was "
                        + minDynamicPort + ".." + maxDynamicPort);
            }
            reservableCores = reservableCores == null ? "" : reservableCores.strip();
            if (!reservableCores.matches("(\\d+(-\\d+)?(\\s*,\\s*\\d+(-\\d+)?)*)?")) {
                throw new IllegalArgumentException("'berth.client.reservable-cores' must list core IDs and ranges like 0-3,8, was \""
                        + reservableCores + "\"");
            }
        }
    }
}
