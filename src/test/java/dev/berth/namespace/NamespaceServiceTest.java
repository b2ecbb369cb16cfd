package dev.berth.namespace;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.berth.events.ChangeFeed;
import dev.berth.events.EventFilter;
import dev.berth.events.IndexStore;
import dev.berth.events.NodeIndex;
import dev.berth.namespace.NamespaceUsage.Blocker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Nomad's namespace rules and texts: validation, the community edition's refusals, deletion and what blocks it. */
class NamespaceServiceTest {

    final MemoryNamespaceStore store = new MemoryNamespaceStore();
    final ChangeFeed feed = new ChangeFeed(new NodeIndex(new IndexStore() {
        long high;

        @Override
        public long highWater() {
            return high;
        }

        @Override
        public void reserveThrough(long highWater) {
            high = highWater;
        }
    }));
    Set<Blocker> blocking = EnumSet.noneOf(Blocker.class);
    final NamespaceService namespaces = new NamespaceService(store, feed, List.of((ns) -> "busy".equals(ns) ? blocking : Set.of()));

    static NamespaceUpsert upsert(String name) {
        return new NamespaceUpsert(name, "", "", null, null, Set.of());
    }

    static NamespaceException.Kind kindOf(Runnable r) {
        try {
            r.run();
        } catch (NamespaceException e) {
            return e.kind();
        }
        return null;
    }

    @Test
    void defaultExistsFromTheStartAndAnUpsertKeepsTheCreateIndex() {
        assertThat(namespaces.exists("default")).isTrue();
        assertThat(namespaces.exists("prod")).isFalse();
        long created = namespaces.upsert(new NamespaceUpsert("prod", "first", "", Map.of("k", "v"), null, Set.of()));
        long updated = namespaces.upsert(new NamespaceUpsert("prod", "second", "", null, null, Set.of()));
        Namespace prod = namespaces.get("prod").value().orElseThrow();
        assertThat(prod.createIndex()).isEqualTo(created);
        assertThat(prod.modifyIndex()).isEqualTo(updated).isGreaterThan(created);
        assertThat(prod.description()).isEqualTo("second");
        assertThat(prod.meta()).isNull();
        assertThat(namespaces.list("").value()).extracting(Namespace::name).containsExactly("default", "prod");
        assertThat(namespaces.list("pr").index()).isEqualTo(updated);
        assertThat(store.list()).extracting(Namespace::name).containsExactly("default", "prod");
        assertThat(feed.changesAfter(0, NamespaceService.changes(), 10)).extracting(c -> c.type())
                .containsExactly("NamespaceUpserted", "NamespaceUpserted");
        EventFilter everything = EventFilter.parse(List.of(), "*", (c) -> null);
        assertThat(feed.changesAfter(0, NamespaceService.changes(), 10)).as("Nomad's event stream has no namespace topic")
                .noneMatch(everything);
    }

    @Test
    void namesAndFieldsAreCheckedAsNomadsCommunityEditionDoes() {
        assertThat(namespaces.upsert(upsert("a-Z-0-" + "x".repeat(122)))).isPositive();
        assertThatExceptionOfType(NamespaceException.class).isThrownBy(() -> namespaces.upsert(upsert("a".repeat(129))))
                .withMessageContaining("Must match regex ^[a-zA-Z0-9-]{1,128}$");
        assertThatExceptionOfType(NamespaceException.class).isThrownBy(() -> namespaces.upsert(upsert("a.b")))
                .withMessage("Invalid namespace \"a.b\": 1 error occurred:\n\t* invalid name \"a.b\". Must match regex ^[a-zA-Z0-9-]{1,128}$\n\n");
        assertThatExceptionOfType(NamespaceException.class)
                .isThrownBy(() -> namespaces.upsert(new NamespaceUpsert("ok", "", "", null, null, Set.of("NodePoolConfiguration", "ConsulConfiguration"))))
                .withMessage("Invalid namespace \"ok\": 2 errors occurred:\n\t* invalid node pool configuration: Node Pools Governance is unlicensed.\n"
                        + "\t* invalid consul configuration: Multi-Cluster Consul is unlicensed.\n\n");
        assertThatExceptionOfType(NamespaceException.class).isThrownBy(() -> namespaces.upsert(new NamespaceUpsert("ok", "", "gold", null, null, Set.of())))
                .withMessage("namespace \"ok\" using non-existent quota \"gold\"");
        assertThat(namespaces.exists("ok")).as("a refused write changes nothing").isFalse();
        assertThat(kindOf(() -> namespaces.upsert(upsert("")))).isEqualTo(NamespaceException.Kind.INVALID);
    }

    @Test
    void defaultAndUnknownNamesAreNotDeletedAndBlockersAreReportedInNomadsOrder() {
        assertThatExceptionOfType(NamespaceException.class).isThrownBy(() -> namespaces.delete("default"))
                .withMessage("can not delete default namespace");
        assertThat(kindOf(() -> namespaces.delete("nope"))).isEqualTo(NamespaceException.Kind.NOT_FOUND);

        namespaces.upsert(upsert("busy"));
        blocking = EnumSet.of(Blocker.VARIABLES, Blocker.JOBS);
        NamespaceService withBlockers = new NamespaceService(store, feed, List.of((ns) -> blocking));
        assertThatExceptionOfType(NamespaceException.class).isThrownBy(() -> withBlockers.delete("busy"))
                .satisfies(e -> assertThat(e.kind()).isEqualTo(NamespaceException.Kind.NOT_EMPTY))
                .withMessage("2 errors occurred:\n\t* namespace \"busy\" has non-terminal jobs in regions: [global]\n"
                        + "\t* namespace \"busy\" has variables associated with it in regions: [global]\n\n");
        assertThat(withBlockers.exists("busy")).isTrue();

        blocking = EnumSet.noneOf(Blocker.class);
        long deleted = withBlockers.delete("busy");
        assertThat(withBlockers.exists("busy")).isFalse();
        assertThat(store.tableIndex()).isEqualTo(deleted);
        assertThat(withBlockers.get("busy").index()).as("an absent namespace answers the table index").isEqualTo(deleted);
    }

    @Test
    void aJobIsCheckedAgainstItsNamespaceAndItsCapabilities() {
        assertThat(namespaces.refusal("default", "web", List.of("raw_exec"), List.of("host"))).isEmpty();
        assertThat(namespaces.refusal("nope", "web", List.of("raw_exec"), List.of())).hasValue("job \"web\" is in nonexistent namespace \"nope\"");
        namespaces.upsert(new NamespaceUpsert("open", "", "", null, null, Set.of()));
        assertThat(namespaces.refusal("open", "web", List.of("docker", "raw_exec"), List.of("bridge"))).isEmpty();

        namespaces.upsert(new NamespaceUpsert("locked", "", "", null,
                new Capabilities(List.of("exec", "raw_exec", "docker"), List.of("raw_exec"), null, List.of("bridge")), Set.of()));
        assertThat(namespaces.refusal("locked", "web", List.of("exec", "docker"), List.of("host"))).isEmpty();
        assertThat(namespaces.refusal("locked", "web", List.of("exec", "raw_exec"), List.of()))
                .hasValue("used task driver \"raw_exec\" is not allowed in namespace \"locked\"");
        assertThat(namespaces.refusal("locked", "web", List.of("mock", "raw_exec"), List.of()))
                .hasValue("used task drivers [\"mock\" \"raw_exec\"] are not allowed in namespace \"locked\"");
        assertThat(namespaces.refusal("locked", "web", List.of("exec"), List.of("host", "bridge")))
                .hasValue("used group network mode \"bridge\" is not allowed in namespace \"locked\"");
        assertThat(namespaces.get("locked").value().orElseThrow().capabilities().disabledTaskDrivers()).containsExactly("raw_exec");
    }
}
