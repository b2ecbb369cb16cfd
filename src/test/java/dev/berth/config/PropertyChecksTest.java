package dev.berth.config;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import dev.berth.config.PropertyChecks.InvalidPropertyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class PropertyChecksTest {

    @Test
    void goodValuesPassThrough() {
        assertThat(PropertyChecks.required("k", "v")).isEqualTo("v");
        assertThat(PropertyChecks.notBlank("k", " v ")).isEqualTo(" v ");
        assertThat(PropertyChecks.atLeast("k", 1, 1)).isEqualTo(1);
        assertThat(PropertyChecks.between("k", 0, 0, 100)).isZero();
        assertThat(PropertyChecks.between("k", 100, 0, 100)).isEqualTo(100);
        assertThat(PropertyChecks.positive("k", Duration.ofNanos(1))).isEqualTo(Duration.ofNanos(1));
        assertThat(PropertyChecks.positive("k", DataSize.ofBytes(1))).isEqualTo(DataSize.ofBytes(1));
    }

    @Test
    void eachRuleNamesTheKeyAndTheValue() {
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.required("berth.x", null))
                .withMessage("'berth.x' must be set")
                .satisfies(e -> assertThat(e.key()).isEqualTo("berth.x"))
                .satisfies(e -> assertThat(e.rule()).isEqualTo("must be set"));
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.notBlank("berth.x", "\t"))
                .withMessage("'berth.x' must not be blank");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.notBlank("berth.x", null))
                .withMessage("'berth.x' must not be blank");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.atLeast("berth.x", 0, 1))
                .withMessage("'berth.x' must be at least 1, was 0");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.between("berth.x", 100.5, 0, 100))
                .withMessage("'berth.x' must be between 0 and 100, was 100.5");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.between("berth.x", -1, 0, 100))
                .withMessage("'berth.x' must be between 0 and 100, was -1");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.between("berth.x", Double.NaN, 0, 100))
                .withMessage("'berth.x' must be between 0 and 100, was NaN");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.positive("berth.x", Duration.ZERO))
                .withMessage("'berth.x' must be positive, was PT0S");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.positive("berth.x", (Duration) null))
                .withMessage("'berth.x' must be set");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.positive("berth.x", DataSize.ofBytes(0)))
                .withMessage("'berth.x' must be positive, was 0B");
        assertThatExceptionOfType(InvalidPropertyException.class).isThrownBy(() -> PropertyChecks.positive("berth.x", (DataSize) null))
                .withMessage("'berth.x' must be set");
    }
}
