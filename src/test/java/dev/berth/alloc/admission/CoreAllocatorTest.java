package dev.berth.alloc.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CpuPartition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CoreAllocatorTest {

    private final List<CpuPartition> published = new ArrayList<>();
    private final CoreAllocator cores = new CoreAllocator(published::add);

    /** reservable, held before (alloc "old"), asked per task, the cores given per task or the refusal's text. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("0-3", "", Map.of("t", 1), Map.of("t", "0"), null),
                Arguments.of("0-3", "", ordered("a", 2, "b", 1), Map.of("a", "0-1", "b", "2"), null),
                Arguments.of("0-3", "0,2", Map.of("t", 2), Map.of("t", "1,3"), null),
                Arguments.of("2,5,7", "", Map.of("t", 3), Map.of("t", "2,5,7"), null),
                Arguments.of("0-3", "", Map.of("t", 5), null, "asked 5, the node has 4 reservable: 0-3"),
                Arguments.of("0-3", "0-2", Map.of("t", 2), null, "asked 2, 1 of 4 reservable cores free: 3"),
                Arguments.of("0-3", "0-3", Map.of("t", 1), null, "asked 1, 0 of 4 reservable cores free: none"),
                Arguments.of("", "", Map.of("t", 1), null, "asked 1, the node has 0 reservable: none"),
                Arguments.of("0-1", "", Map.of("t", 0), Map.of(), null));
    }

    @ParameterizedTest(name = "reservable {0}, held {1}, asked {2}")
    @MethodSource("table")
    void picksTheLowestFreeCoresOrRefusesWithNothingTaken(String reservable, String heldBefore, Map<String, Integer> asked,
                                                          Map<String, String> given, String refusal) throws AdmissionException {
        CoreSet node = CoreSet.parse(reservable);
        if (!heldBefore.isEmpty()) {
            cores.claim("old", Map.of("x", CoreSet.parse(heldBefore)), node);
        }
        if (refusal != null) {
            assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> cores.reserve("new", asked, node))
                    .withMessage("Resources exhausted on node: cores (" + refusal + ")")
                    .satisfies(e -> assertThat(e.resource()).isEqualTo("cores"));
            assertThat(cores.reserved()).isEqualTo(CoreSet.parse(heldBefore));
            return;
        }
        Map<String, CoreSet> expected = new LinkedHashMap<>();
        given.forEach((task, ids) -> expected.put(task, CoreSet.parse(ids)));
        assertThat(cores.reserve("new", asked, node)).isEqualTo(expected);
        expected.values().forEach(c -> assertThat(cores.reserved().containsAll(c)).isTrue());
    }

    @Test
    void releaseFreesTheCoresAndTellsTheCgroups() throws AdmissionException {
        CoreSet node = CoreSet.parse("0-3");
        cores.reserve("a", Map.of("web", 2), node);
        CpuPartition afterReserve = published.getLast();
        assertThat(afterReserve.coresOf("a", "web")).isEqualTo(CoreSet.of(0, 1));
        assertThat(afterReserve.shared()).isEqualTo(CoreSet.of(2, 3));

        cores.release("a");
        cores.release("a"); // idempotent: told once

        assertThat(cores.reserved()).isEqualTo(CoreSet.EMPTY);
        assertThat(published).hasSize(2);
        assertThat(published.getLast().shared()).isEqualTo(node);
        assertThat(cores.reserve("b", Map.of("db", 1), node)).containsEntry("db", CoreSet.of(0));
    }

    @Test
    void aRestoreClaimsThePersistedCoresSoNoneIsHandedOutTwice() throws AdmissionException {
        CoreSet node = CoreSet.parse("0-3");
        assertThat(cores.claim("a", Map.of("web", CoreSet.of(1, 2)), node)).isEqualTo(CoreSet.EMPTY);

        assertThat(cores.reserve("b", Map.of("db", 2), node)).containsEntry("db", CoreSet.of(0, 3));
        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> cores.reserve("c", Map.of("x", 1), node));
    }

    @Test
    void aClaimOfCoresHeldElsewhereOrNoLongerReservableKeepsOnlyTheGoodOnes() {
        CoreSet node = CoreSet.parse("0-3");
        cores.claim("a", Map.of("web", CoreSet.of(0)), node);

        CoreSet lost = cores.claim("b", Map.of("db", CoreSet.of(0, 1, 7)), node);

        assertThat(lost).isEqualTo(CoreSet.of(0, 7));
        assertThat(cores.partition().coresOf("b", "db")).isEqualTo(CoreSet.of(1));
    }

    @Test
    void whenEveryCoreIsReservedTheSharedTasksKeepThemAll() throws AdmissionException {
        CoreSet node = CoreSet.parse("0-1");
        cores.reserve("a", Map.of("web", 2), node);

        assertThat(published.getLast().shared()).isEqualTo(node);
    }

    private static Map<String, Integer> ordered(String a, int countA, String b, int countB) {
        Map<String, Integer> asked = new LinkedHashMap<>();
        asked.put(a, countA);
        asked.put(b, countB);
        return asked;
    }
}
