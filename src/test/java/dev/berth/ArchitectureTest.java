package dev.berth;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** Keeps the layout of docs/architecture.md: feature packages without cycles, JPA only inside {@code state}. */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.berth");
    }

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("dev.berth.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void jpaStaysInsideState() {
        noClasses().that().resideOutsideOfPackage("dev.berth.state..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "org.springframework.data.jpa..",
                        "org.hibernate..")
                .check(classes);
    }

    @Test
    void featuresDoNotDependOnTheApi() {
        noClasses().that().resideOutsideOfPackage("dev.berth.api..")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.api..")
                .check(classes);
    }

    @Test
    void stateIsOnlyReachedThroughPorts() {
        noClasses().that().resideOutsideOfPackages("dev.berth.state..")
                .and().doNotHaveFullyQualifiedName("dev.berth.Application")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.state..")
                .check(classes);
    }
}
