package dev.berth.host;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CoreSetTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0-3,8,10-11 | 0-3,8,10-11",
            "'3, 1,2'    | 1-3",
            "5           | 5",
            "0-0,0       | 0",
            "''          | ''",
            "'0-1\n'     | 0-1"})
    void parsesTheKernelsListFormatAndWritesItBackCollapsed(String text, String written) {
        assertThat(CoreSet.parse(text).toString()).isEqualTo(written);
    }

    @Test
    void setOperationsKeepIdsSortedAndUnique() {
        CoreSet all = CoreSet.parse("0-5");
        assertThat(all.minus(CoreSet.of(1, 4)).ids()).containsExactly(0, 2, 3, 5);
        assertThat(CoreSet.of(4, 2).union(CoreSet.of(2, 0)).ids()).containsExactly(0, 2, 4);
        assertThat(all.intersect(CoreSet.of(7, 3)).ids()).containsExactly(3);
        assertThat(all.containsAll(CoreSet.of(0, 5))).isTrue();
        assertThat(all.containsAll(CoreSet.of(6))).isFalse();
        assertThat(CoreSet.of(List.of(2, 2, 1))).isEqualTo(CoreSet.of(1, 2));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a | \"a\" is not a core ID", "3-1 | runs backwards", "-1 | \"-1\" is not a core ID"})
    void refusesWhatIsNotAListOfIds(String text, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> CoreSet.parse(text)).withMessageContaining(message);
    }
}
