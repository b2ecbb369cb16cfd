package dev.berth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the layout of docs/architecture.md: no package cycle at any depth, dependencies pointing one way
 * ({@code api → alloc → driver, device, stats → host}), the alloc sub-packages layered, SQL only inside {@code state},
 * classes small and comments that say what they mean.
 */
class ArchitectureTest {

    private static final Path MAIN_SOURCES = Path.of("src/main/java");
    private static final int MAX_CLASS_LINES = 350;
    /** Above this no file goes, justified or not. */
    private static final int HARD_MAX_CLASS_LINES = 400;
    /**
     * The files allowed between {@value #MAX_CLASS_LINES} and {@value #HARD_MAX_CLASS_LINES} lines, each with its reason.
     * Not a waiting list: an entry whose file shrinks below the limit must go.
     */
    private static final Map<String, String> OVER_350_JUSTIFIED = Map.of(
            "dev/berth/alloc/AllocManager.java",
            "the one entry point for submit, update, stop, restart, signal and destroy: they share the registry's locking",
            "dev/berth/alloc/runner/AllocRunner.java",
            "the alloc's run loop and the kill/destroy/shutdown/update entry points that post to its one inbox",
            "dev/berth/alloc/task/TaskRunner.java",
            "one task's state machine (its Phase and advance(), one step per phase) and the lifecycle calls that drive it",
            "dev/berth/driver/docker/DockerDriver.java",
            "the whole TaskDriver contract for docker; each phase is one engine call sequence",
            "dev/berth/driver/rawexec/RawExecDriver.java",
            "the whole TaskDriver contract for raw_exec (start, recover, wait, stop, destroy, signal, exec)");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.berth");
    }

    /** The agent skips Spring Boot's scan for {@code @JsonMixin} classes at start ({@code api.NoJsonMixinScan}). */
    @Test
    void noJacksonMixins() {
        noClasses().should().beAnnotatedWith("org.springframework.boot.jackson.JacksonMixin").check(classes);
    }

    /** The agent runs without Spring's declarative transactions (no proxies at start): {@code state.StateTransactions}. */
    @Test
    void transactionsAreWrittenOut() {
        noMethods().should().beAnnotatedWith("org.springframework.transaction.annotation.Transactional")
                .because("TransactionAutoConfiguration is excluded (Application): the annotation would do nothing")
                .check(classes);
        noClasses().should().beAnnotatedWith("org.springframework.transaction.annotation.Transactional").check(classes);
    }

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("dev.berth.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void noPackageCycleAtAnyDepth() {
        slices().matching("dev.berth.(**)").should().beFreeOfCycles().check(classes);
    }

    /** The database is reached only through the state adapters (Spring JDBC, H2 itself); features see their ports. */
    @Test
    void jdbcStaysInsideState() {
        noClasses().that().resideOutsideOfPackage("dev.berth.state..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.jdbc..", "java.sql..", "javax.sql..",
                        "org.h2..")
                .check(classes);
    }

    @Test
    void featuresDoNotDependOnTheApi() {
        noClasses().that().resideOutsideOfPackage("dev.berth.api..")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.api..")
                .check(classes);
    }

    /**
     * Errors reach HTTP one way: feature packages throw exceptions named for what went wrong and never name an HTTP
     * status; the API's one advice (with {@code DomainErrors}) maps them, and no controller handles errors itself.
     */
    @Test
    void errorsAreMappedToHttpInOnePlace() {
        noClasses().that().resideOutsideOfPackage("dev.berth.api..")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.springframework.http.HttpStatus")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.springframework.http.HttpStatusCode")
                .check(classes);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods()
                .that().areAnnotatedWith(org.springframework.web.bind.annotation.ExceptionHandler.class)
                .should().beDeclaredIn("dev.berth.api.ProblemDetailsAdvice")
                .check(classes);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
                .that().areAnnotatedWith(org.springframework.web.bind.annotation.RestControllerAdvice.class)
                .should().haveFullyQualifiedName("dev.berth.api.ProblemDetailsAdvice")
                .check(classes);
    }

    /**
     * A driver's state is its own: outside the drivers, the agent learns where a task runs only through the typed
     * {@code TaskDriver.process} view, never by reading the handle's string keys.
     */
    @Test
    void onlyDriversReadTheirState() {
        noClasses().that().resideOutsideOfPackage("dev.berth.driver..")
                .should().callMethod(dev.berth.driver.TaskHandle.class, "driverState")
                .check(classes);
    }

    /** Settings come through the typed {@code berth.*} properties, never from a system property read on the side. */
    @Test
    void noSettingBypassesTheTypedProperties() {
        noClasses().that().resideInAPackage("dev.berth..").and().doNotHaveFullyQualifiedName("dev.berth.Application")
                .should().callMethod(Boolean.class, "getBoolean", String.class)
                .orShould().callMethod(System.class, "getProperty", String.class, String.class)
                .orShould().callMethod(Integer.class, "getInteger", String.class)
                .orShould().callMethod(Long.class, "getLong", String.class)
                .check(classes);
    }

    /** One way to wait that tests can script: {@code config.Sleeper} (plain and cancellable waits), no second kind. */
    @Test
    void oneSleeper() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
                .that().haveSimpleName("Sleeper")
                .should().haveFullyQualifiedName("dev.berth.config.Sleeper")
                .check(classes);
    }

    @Test
    void stateIsOnlyReachedThroughPorts() {
        noClasses().that().resideOutsideOfPackages("dev.berth.state..")
                .and().doNotHaveFullyQualifiedName("dev.berth.Application")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.state..")
                .check(classes);
    }

    /** The host's OS library (cgroups, procfs, signals, epoll, mounts) depends on no feature. */
    @Test
    void hostDependsOnNoFeature() {
        noClasses().that().resideInAPackage("dev.berth.host..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc..", "dev.berth.api..", "dev.berth.device..",
                        "dev.berth.driver..", "dev.berth.events..", "dev.berth.fingerprint..", "dev.berth.state..", "dev.berth.stats..")
                .check(classes);
    }

    /** Drivers, devices, stats and fingerprinting sit below the allocation lifecycle; stats reads the host, not drivers. */
    @Test
    void lowerLayersDoNotReachUp() {
        noClasses().that().resideInAnyPackage("dev.berth.driver..", "dev.berth.device..", "dev.berth.stats..", "dev.berth.fingerprint..")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.alloc..")
                .check(classes);
        noClasses().that().resideInAnyPackage("dev.berth.stats..", "dev.berth.fingerprint.host..")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.driver..")
                .check(classes);
    }

    /** Device plugins wire themselves: the device manager never imports a plugin. */
    @Test
    void deviceCoreKnowsNoPlugin() {
        noClasses().that().resideInAPackage("dev.berth.device")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.device.example..", "dev.berth.device.nvidia..")
                .check(classes);
    }

    /**
     * The alloc sub-packages are layered, bottom up: {@code spec}; {@code fs}; {@code task}; {@code store};
     * {@code runner}; then {@code hooks}, {@code admission}, {@code restore}; the service ({@code alloc}) on top and
     * {@code gc} above it.
     */
    @Test
    void allocSubPackagesPointDown() {
        noClasses().that().resideInAPackage("dev.berth.alloc.spec..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.fs..", "dev.berth.alloc.task..",
                        "dev.berth.alloc.store..", "dev.berth.alloc.runner..", "dev.berth.alloc.hooks..", "dev.berth.alloc.admission..",
                        "dev.berth.alloc.restore..", "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.berth.alloc.fs..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.task..", "dev.berth.alloc.store..",
                        "dev.berth.alloc.runner..", "dev.berth.alloc.hooks..", "dev.berth.alloc.admission..", "dev.berth.alloc.restore..",
                        "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.berth.alloc.task..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.store..", "dev.berth.alloc.runner..",
                        "dev.berth.alloc.hooks..", "dev.berth.alloc.admission..", "dev.berth.alloc.restore..", "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.berth.alloc.store..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.runner..", "dev.berth.alloc.hooks..",
                        "dev.berth.alloc.admission..", "dev.berth.alloc.restore..", "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.berth.alloc.runner..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.hooks..",
                        "dev.berth.alloc.admission..", "dev.berth.alloc.restore..", "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAnyPackage("dev.berth.alloc.hooks..", "dev.berth.alloc.admission..", "dev.berth.alloc.restore..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.berth.alloc", "dev.berth.alloc.gc..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.berth.alloc")
                .should().dependOnClassesThat().resideInAPackage("dev.berth.alloc.gc..")
                .check(classes);
    }

    @Test
    void noClassIsOver350LinesWithoutAReason() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
            List<Path> sources = files.filter(f -> f.toString().endsWith(".java")).toList();
            List<String> tooLong = sources.stream()
                    .filter(f -> lines(f).size() > MAX_CLASS_LINES)
                    .filter(f -> lines(f).size() > HARD_MAX_CLASS_LINES || !OVER_350_JUSTIFIED.containsKey(key(f)))
                    .map(f -> key(f) + " (" + lines(f).size() + " lines)")
                    .toList();
            assertThat(tooLong).as("source files over %d lines without a reason in OVER_350_JUSTIFIED, or over %d",
                    MAX_CLASS_LINES, HARD_MAX_CLASS_LINES).isEmpty();
            List<String> stale = OVER_350_JUSTIFIED.keySet().stream()
                    .filter(k -> sources.stream().noneMatch(f -> key(f).equals(k) && lines(f).size() > MAX_CLASS_LINES))
                    .sorted()
                    .toList();
            assertThat(stale).as("OVER_350_JUSTIFIED entries whose file is gone or no longer over %d lines",
                    MAX_CLASS_LINES).isEmpty();
        }
    }

    private static String key(Path source) {
        return MAIN_SOURCES.relativize(source).toString().replace('\\', '/');
    }

    /** A comment states the reason, not where it came from (an issue number, a seed, a branch). */
    @Test
    void commentsSayWhatTheyMean() throws IOException {
        // ... nor a section of a document outside the repository ("§9"): the rule itself is said where it applies
        Pattern provenance = Pattern.compile("\\b(seed 0\\d\\d|issue #?\\d+|drivers branch)\\b|§\\s*\\d", Pattern.CASE_INSENSITIVE);
        try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
            List<String> hits = files.filter(f -> f.toString().endsWith(".java"))
                    .flatMap(f -> {
                        List<String> l = lines(f);
                        return java.util.stream.IntStream.range(0, l.size()).filter(i -> provenance.matcher(l.get(i)).find())
                                .mapToObj(i -> MAIN_SOURCES.relativize(f) + ":" + (i + 1) + ": " + l.get(i).trim());
                    })
                    .toList();
            assertThat(hits).as("comments that point at an issue, seed or branch instead of saying why").isEmpty();
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
