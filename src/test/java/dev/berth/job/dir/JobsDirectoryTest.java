package dev.berth.job.dir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.node.ObjectNode;

import dev.berth.job.JobException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jobs directory over real files: HCL and JSON files registered at the first scan and when they change, a removed
 * file stops its job, a broken file changes nothing and is reported while the rest loads.
 */
class JobsDirectoryTest {

    @TempDir
    Path dir;

    final Map<String, ObjectNode> registered = new LinkedHashMap<>();
    final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<String> problems = new ArrayList<>();

    JobsDirectory directory() {
        return new JobsDirectory(dir, new JobsDirectory.Jobs() {
            @Override
            public JobsDirectory.JobKey register(ObjectNode job) throws JobException {
                if (!job.path("TaskGroups").isArray() || job.path("TaskGroups").isEmpty()) {
                    throw new JobException(JobException.Kind.INVALID, "1 error occurred:\n\t* Missing job task groups\n");
                }
                registered.put(job.path("ID").asString(), job);
                log.add("register " + job.path("ID").asString());
                return new JobsDirectory.JobKey("default", job.path("ID").asString());
            }

            @Override
            public void stop(JobsDirectory.JobKey job) {
                log.add("stop " + job.id());
            }
        }, (file, error) -> problems.add(file.getFileName() + ": " + error));
    }

    static String hcl(String id, int count) {
        return """
                job "%s" {
                  type = "batch"
                  group "g" {
                    count = %d
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/true"
                      }
                    }
                  }
                }
                """.formatted(id, count);
    }

    @Test
    void filesAreRegisteredAtTheFirstScanAndAgainOnlyWhenTheyChange() throws Exception {
        Files.writeString(dir.resolve("a.nomad.hcl"), hcl("alpha", 1));
        Files.writeString(dir.resolve("b.hcl"), hcl("beta", 1));
        Files.writeString(dir.resolve("c.json"), """
                {"Job":{"ID":"gamma","Type":"batch","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"raw_exec"}]}]}}""");
        Files.writeString(dir.resolve("d.json"), """
                {"ID":"delta","Type":"batch","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"raw_exec"}]}]}""");
        Files.writeString(dir.resolve("notes.txt"), "not a job");
        JobsDirectory d = directory();
        d.scan();
        assertThat(log).containsExactly("register alpha", "register beta", "register gamma", "register delta");
        d.scan();
        assertThat(log).hasSize(4);

        Files.writeString(dir.resolve("b.hcl"), hcl("beta", 3));
        d.scan();
        assertThat(log).last().isEqualTo("register beta");
        assertThat(registered.get("beta").path("TaskGroups").get(0).path("Count").asInt()).isEqualTo(3);
        assertThat(problems).isEmpty();
    }

    @Test
    void aRemovedFileStopsItsJobAndARenamedJobStopsTheOldOne() throws Exception {
        Files.writeString(dir.resolve("a.hcl"), hcl("alpha", 1));
        Files.writeString(dir.resolve("b.hcl"), hcl("beta", 1));
        JobsDirectory d = directory();
        d.scan();
        Files.delete(dir.resolve("a.hcl"));
        d.scan();
        assertThat(log).containsExactly("register alpha", "register beta", "stop alpha");

        Files.writeString(dir.resolve("b.hcl"), hcl("beta2", 1));
        d.scan();
        assertThat(log).endsWith("register beta2", "stop beta");
    }

    @Test
    void aBrokenFileChangesNothingIsReportedOnceAndTheRestLoads() throws Exception {
        Files.writeString(dir.resolve("a.hcl"), hcl("alpha", 1));
        JobsDirectory d = directory();
        d.scan();
        Files.writeString(dir.resolve("a.hcl"), "job \"alpha\" {\n  group \"g\" {\n    count = = 2\n  }\n}\n");
        Files.writeString(dir.resolve("b.hcl"), hcl("beta", 1));
        Files.writeString(dir.resolve("c.json"), "{\"ID\":\"gamma\",\"Type\":\"batch\"}");
        Files.writeString(dir.resolve("d.json"), "{ not json");
        d.scan();
        d.scan();
        assertThat(log).containsExactly("register alpha", "register beta");
        assertThat(registered.get("alpha").path("TaskGroups").get(0).path("Count").asInt()).isEqualTo(1);
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).isEqualTo("a.hcl: a.hcl:3,13-14: Invalid expression; Expected the start of an expression, but found an invalid expression token.");
        assertThat(problems.get(1)).startsWith("c.json: ").contains("Missing job task groups");
        assertThat(problems.get(2)).startsWith("d.json: ");
        assertThat(d.brokenFiles()).hasSize(3);

        // fixed: loads again and is no longer broken; removing a broken file still stops the job it last defined
        Files.writeString(dir.resolve("a.hcl"), hcl("alpha", 2));
        d.scan();
        assertThat(log).last().isEqualTo("register alpha");
        assertThat(d.brokenFiles()).hasSize(2);
        Files.writeString(dir.resolve("a.hcl"), "job {");
        d.scan();
        Files.delete(dir.resolve("a.hcl"));
        d.scan();
        assertThat(log).last().isEqualTo("stop alpha");
    }

    @Test
    void theScanLoopSurvivesALifecycleStopAndStart() throws Exception {
        JobsDirectory d = directory();
        org.springframework.context.SmartLifecycle lifecycle = new JobsDirConfiguration()
                .jobsDirectoryLifecycle(d, new JobsDirProperties(dir, java.time.Duration.ofMillis(50)));
        try {
            Files.writeString(dir.resolve("a.hcl"), hcl("alpha", 1));
            lifecycle.start();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> log.contains("register alpha"));
            lifecycle.stop();
            assertThat(lifecycle.isRunning()).isFalse();
            lifecycle.start();
            assertThat(lifecycle.isRunning()).isTrue();
            Files.writeString(dir.resolve("b.hcl"), hcl("beta", 1));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> log.contains("register beta"));
            assertThat(log).containsExactly("register alpha", "register beta");
        } finally {
            lifecycle.stop();
        }
    }

    @Test
    void twoFilesDefiningOneJobLoadTheFirstOnly() throws Exception {
        Files.writeString(dir.resolve("a.hcl"), hcl("alpha", 1));
        Files.writeString(dir.resolve("b.hcl"), hcl("alpha", 5));
        JobsDirectory d = directory();
        d.scan();
        assertThat(log).containsExactly("register alpha");
        assertThat(problems).containsExactly("b.hcl: job alpha is already defined by a.hcl");
        Files.delete(dir.resolve("b.hcl"));
        d.scan();
        assertThat(log).containsExactly("register alpha");
    }
}
