package dev.berth.variables;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.berth.namespace.NamespaceUpsert;
import dev.berth.namespace.NamespaceUsage;
import dev.berth.variables.VariableOutcome.Conflict;
import dev.berth.variables.VariableOutcome.Deleted;
import dev.berth.variables.VariableOutcome.Written;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Check-and-set writes and deletes, and paging, as Nomad's state store and paginator do them. */
class VariableServiceTest {

    final VariableFixture fixture = new VariableFixture();
    final MemoryVariableStore store = fixture.store;
    final VariableService variables = fixture.variables;

    VariableOutcome put(String path, String value, OptionalLong cas) {
        return variables.put("default", path, Map.of("v", value), LockRequest.NONE, cas);
    }

    @Test
    void casZeroCreatesOnlyWhenAbsentAndAStaleIndexAnswersTheCurrentVariable() {
        Written created = (Written) put("db", "1", OptionalLong.of(0));
        long index = created.variable().meta().modifyIndex();

        assertThat(put("db", "2", OptionalLong.of(0))).isInstanceOfSatisfying(Conflict.class,
                c -> assertThat(c.current().items()).isEqualTo(Map.of("v", "1")));
        assertThat(put("db", "2", OptionalLong.of(index + 100))).isInstanceOfSatisfying(Conflict.class,
                c -> assertThat(c.index()).isEqualTo(index));
        assertThat(put("db", "2", OptionalLong.of(index))).isInstanceOfSatisfying(Written.class, w -> {
            assertThat(w.variable().meta().createIndex()).isEqualTo(index);
            assertThat(w.variable().meta().modifyIndex()).isGreaterThan(index);
        });
        assertThat(put("absent", "x", OptionalLong.of(7))).isInstanceOfSatisfying(Conflict.class,
                c -> assertThat(c.current()).isEqualTo(Variable.zero("default", "absent")));
    }

    @Test
    void casDeletes() {
        long index = ((Written) put("db", "1", OptionalLong.empty())).variable().meta().modifyIndex();
        assertThat(variables.delete("default", "db", OptionalLong.of(0))).isInstanceOf(Conflict.class);
        assertThat(variables.delete("default", "db", OptionalLong.of(index - 1))).isInstanceOf(Conflict.class);
        assertThat(variables.delete("default", "db", OptionalLong.of(index))).isInstanceOf(Deleted.class);
        assertThat(variables.read("default", "db").value()).isEmpty();
        assertThat(variables.delete("default", "db", OptionalLong.of(0))).as("0: only if absent").isInstanceOf(Deleted.class);
        assertThat(variables.delete("default", "db", OptionalLong.of(index))).isInstanceOf(Conflict.class);
        assertThat(variables.read("default", "db").index()).as("the table index moved with the delete").isGreaterThan(index);
    }

    @Test
    void pagesFollowNomadsTokens() {
        for (String p : new String[] {"a/1", "a/2", "a/3", "a/4", "b/1"}) {
            put(p, p, OptionalLong.empty());
        }
        VariableService.Page first = variables.list("default", "a/", "", 2, false).value();
        assertThat(first.variables()).extracting(VariableMeta::path).containsExactly("a/1", "a/2");
        assertThat(first.nextToken()).isEqualTo("default.a/3");
        VariableService.Page second = variables.list("default", "a/", first.nextToken(), 2, false).value();
        assertThat(second.variables()).extracting(VariableMeta::path).containsExactly("a/3", "a/4");
        assertThat(second.nextToken()).isEmpty();
        assertThat(variables.list("default", "", "default.a/4", 0, true).value().variables()).extracting(VariableMeta::path)
                .containsExactly("a/4", "a/3", "a/2", "a/1");
        assertThat(variables.list("*", "b", "", 0, false).value().variables()).extracting(VariableMeta::path).containsExactly("b/1");
        assertThat(variables.list("prod", "", "", 0, false).value().variables()).as("a namespace that does not exist").isEmpty();
    }

    @Test
    void aVariableLivesInANamespaceThatExistsAndKeepsItFromBeingDeleted() {
        assertThatExceptionOfType(VariableException.class)
                .isThrownBy(() -> variables.put("prod", "db", Map.of("v", "1"), LockRequest.NONE, OptionalLong.empty()))
                .withMessage("variable \"db\" is in nonexistent namespace \"prod\"");
        fixture.namespaces.upsert(new NamespaceUpsert("prod", "", "", null, null, Set.of()));
        assertThat(variables.put("prod", "db", Map.of("v", "prod"), LockRequest.NONE, OptionalLong.empty())).isInstanceOf(Written.class);
        put("db", "default", OptionalLong.empty());

        assertThat(variables.read("prod", "db").value()).hasValueSatisfying(v -> assertThat(v.items()).isEqualTo(Map.of("v", "prod")));
        assertThat(variables.read("default", "db").value()).hasValueSatisfying(v -> assertThat(v.items()).isEqualTo(Map.of("v", "default")));
        assertThat(variables.list("prod", "", "", 0, false).value().variables()).extracting(VariableMeta::namespace).containsExactly("prod");
        assertThat(new VariableNamespaceUsage(store).blockers("prod")).containsExactly(NamespaceUsage.Blocker.VARIABLES);

        variables.delete("prod", "db", OptionalLong.empty());
        assertThat(new VariableNamespaceUsage(store).blockers("prod")).isEmpty();
    }
}
