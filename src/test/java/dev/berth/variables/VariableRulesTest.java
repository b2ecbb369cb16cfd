package dev.berth.variables;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Nomad's path, size and lock rules with Nomad's texts ({@code nomad/structs/variables.go}). */
class VariableRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "app/db/password", "A-b_c~d/e", "nomad/jobs", "nomad/jobs/web/app/server", "nomad/sentinel/x",
            "nomad/job-templates/tmpl", "x/"})
    void validPaths(String path) {
        assertThatNoException().isThrownBy(() -> VariableRules.checkPath(path));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "a b|invalid path \"a b\"",
            "a.b|invalid path \"a.b\"",
            "a@b|invalid path \"a@b\"",
            "nomad|\"nomad\" is a reserved top-level directory path, but you may write variables to \"nomad/jobs\", \"nomad/job-templates\", \"nomad/sentinel\", or below",
            "nomad/job-templates|\"nomad/job-templates\" is a reserved directory path, but you may write variables at the level below it, for example, \"nomad/job-templates/template-name\"",
            "nomad/job-templates/a/b|\"nomad/job-templates\" is a reserved directory path, but you may write variables at the level below it, for example, \"nomad/job-templates/template-name\"",
            "nomad/other|only paths at \"nomad/jobs\" or \"nomad/job-templates\" and below are valid paths under the top-level \"nomad\" directory"})
    void invalidPathsAreRefusedWithNomadsText(String path, String text) {
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkPath(path))
                .withMessage(text).satisfies(e -> assertThat(e.kind()).isEqualTo(VariableException.Kind.INVALID));
    }

    @Test
    void aPathIsAtMost128Characters() {
        assertThatNoException().isThrownBy(() -> VariableRules.checkPath("p".repeat(128)));
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkPath("p".repeat(129)));
    }

    @Test
    void itemsAreNonEmptyAndAtMost64KiBOfKeyAndValueBytes() {
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkItems(Map.of()))
                .withMessage("empty variables are invalid");
        assertThatNoException().isThrownBy(() -> VariableRules.checkItems(Map.of("k", "v".repeat(65_535))));
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkItems(Map.of("k", "v".repeat(65_536))))
                .withMessage("variables are limited to 64KiB in total size");
        assertThat(VariableRules.size(Map.of("é", "€"))).as("UTF-8 bytes, as Go's len()").isEqualTo(5);
    }

    @Test
    void aLockTtlIsBetweenTenSecondsAndADay() {
        assertThatNoException().isThrownBy(() -> VariableRules.checkLock(Duration.ofSeconds(10), Duration.ZERO));
        assertThatNoException().isThrownBy(() -> VariableRules.checkLock(Duration.ofHours(24), Duration.ofSeconds(15)));
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkLock(Duration.ofSeconds(9), Duration.ZERO))
                .withMessage("1 error occurred:\n\t* TTL must be between 10 seconds and 24 hours\n\n");
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkLock(Duration.ofSeconds(-1), Duration.ZERO))
                .withMessage("2 errors occurred:\n\t* Lock delay and TTL must be positive\n\t* TTL must be between 10 seconds and 24 hours\n\n");
    }

    @Test
    void aWriteNeedsANamespaceThatExistsAndNeverTheWildcard() {
        assertThatNoException().isThrownBy(() -> VariableRules.checkWritableNamespace("prod", "p", true));
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkWritableNamespace("*", "p", true))
                .withMessage("can not target wildcard (\"*\")namespace");
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> VariableRules.checkWritableNamespace("prod", "p", false))
                .withMessage("variable \"p\" is in nonexistent namespace \"prod\"");
    }
}
