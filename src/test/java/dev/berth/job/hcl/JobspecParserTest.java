package dev.berth.job.hcl;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.job.JobDefaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Jobspecs in the shapes of Nomad's documentation become Nomad's job JSON. */
class JobspecParserTest {

    final JobspecParser parser = new JobspecParser();

    static String read(String name) throws Exception {
        try (InputStream in = JobspecParserTest.class.getResourceAsStream("/jobspecs/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String job(String prelude, String count, String command) {
        return prelude + """
                job "v" {
                  datacenters = [var.dc]
                  group "g" {
                    count = %s
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = %s
                      }
                    }
                  }
                }
                """.formatted(count, command);
    }

    /** HCL2 as Nomad evaluates it at parse time: variables with defaults, locals, arithmetic, functions, templates. */
    @Test
    void variablesLocalsFunctionsAndTemplatesAreEvaluatedAndRuntimeVariablesKept() throws Exception {
        String vars = "variable \"dc\" {\n  type    = string\n  default = \"dc7\"\n}\nlocals {\n  n = 3\n}\n";
        ObjectNode job = parser.parse(job(vars, "local.n + 1", "join(\"-\", [upper(\"a\"), lower(\"B\"), replace(\"c.d\", \".\", \"_\")])"));
        assertThat(job.path("Datacenters").get(0).asString()).isEqualTo("dc7");
        JsonNode group = job.path("TaskGroups").get(0);
        assertThat(group.path("Count").asInt()).isEqualTo(4);
        assertThat(group.path("Tasks").get(0).path("Config").path("command").asString()).isEqualTo("A-b-c_d");
        // a template evaluates its functions and leaves the task's runtime variables for interpolation at start
        ObjectNode templated = parser.parse(job(vars, "1", "\"${upper(\"x\")}-${NOMAD_TASK_DIR}/run\""));
        assertThat(templated.path("TaskGroups").get(0).path("Tasks").get(0).path("Config").path("command").asString())
                .isEqualTo("X-${NOMAD_TASK_DIR}/run");
    }

    @Test
    void serviceJobWithPortsChecksPoliciesAndDurations() throws Exception {
        ObjectNode job = parser.parse(read("service.nomad.hcl"));
        assertThat(job.path("ID").asString()).isEqualTo("docs");
        assertThat(job.path("Name").asString()).isEqualTo("docs");
        assertThat(job.path("Type").asString()).isEqualTo("service");
        assertThat(job.path("Datacenters").get(0).asString()).isEqualTo("dc1");
        JsonNode c = job.path("Constraints").get(0);
        assertThat(c.path("LTarget").asString()).isEqualTo("${attr.kernel.name}");
        assertThat(c.path("RTarget").asString()).isEqualTo("linux");
        assertThat(c.path("Operand").asString()).isEqualTo("=");
        assertThat(job.path("Update").path("MaxParallel").asInt()).isEqualTo(2);
        assertThat(job.path("Update").path("MinHealthyTime").asLong()).isEqualTo(15_000_000_000L);

        JsonNode g = job.path("TaskGroups").get(0);
        assertThat(g.path("Name").asString()).isEqualTo("example");
        assertThat(g.path("Count").asInt()).isEqualTo(3);
        JsonNode net = g.path("Networks").get(0);
        assertThat(net.path("ReservedPorts").get(0).path("Label").asString()).isEqualTo("http");
        assertThat(net.path("ReservedPorts").get(0).path("Value").asInt()).isEqualTo(8080);
        assertThat(net.path("DynamicPorts").get(0).path("Label").asString()).isEqualTo("metrics");
        assertThat(g.path("RestartPolicy").path("Interval").asLong()).isEqualTo(1_800_000_000_000L);
        assertThat(g.path("RestartPolicy").path("Delay").asLong()).isEqualTo(15_000_000_000L);
        assertThat(g.path("ReschedulePolicy").path("MaxDelay").asLong()).isEqualTo(3_600_000_000_000L);
        assertThat(g.path("ReschedulePolicy").path("Unlimited").asBoolean()).isTrue();
        assertThat(g.path("EphemeralDisk").path("SizeMB").asInt()).isEqualTo(500);
        assertThat(g.path("EphemeralDisk").path("Migrate").asBoolean()).isTrue();
        JsonNode svc = g.path("Services").get(0);
        assertThat(svc.path("Name").asString()).isEqualTo("docs-web");
        assertThat(svc.path("PortLabel").asString()).isEqualTo("http");
        assertThat(svc.path("Checks").get(0).path("Interval").asLong()).isEqualTo(10_000_000_000L);
        assertThat(svc.path("Checks").get(0).path("Timeout").asLong()).isEqualTo(2_000_000_000L);

        JsonNode t = g.path("Tasks").get(0);
        assertThat(t.path("Name").asString()).isEqualTo("server");
        assertThat(t.path("Driver").asString()).isEqualTo("raw_exec");
        assertThat(t.path("Config").path("args").get(1).asString()).isEqualTo(":${NOMAD_PORT_http}");
        assertThat(t.path("Config").path("args").get(3).asString()).isEqualTo("hello from ${node.unique.name}");
        assertThat(t.path("Env").path("GREETING").asString()).isEqualTo("hi");
        assertThat(t.path("Resources").path("CPU").asInt()).isEqualTo(200);
        assertThat(t.path("Resources").path("MemoryMB").asInt()).isEqualTo(128);
        assertThat(t.path("KillTimeout").asLong()).isEqualTo(20_000_000_000L);
        assertThat(t.path("KillSignal").asString()).isEqualTo("SIGINT");
        assertThat(t.path("ShutdownDelay").asLong()).isEqualTo(5_000_000_000L);
        assertThat(t.path("LogConfig").path("MaxFiles").asInt()).isEqualTo(3);
        assertThat(t.path("Meta").path("owner").asString()).isEqualTo("platform");
    }

    @Test
    void migrateBlocksAreParsedAtJobAndGroupLevelAndMergedWithNomadsDefaults() throws Exception {
        ObjectNode job = JobDefaults.canonicalize(parser.parse("""
                job "m" {
                  migrate {
                    max_parallel     = 2
                    healthy_deadline = "2m"
                  }
                  group "g" {
                    count = 3
                    migrate {
                      health_check     = "task_states"
                      min_healthy_time = "5s"
                    }
                    update {
                      auto_promote = true
                      canary       = 1
                    }
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "sleep"
                      }
                    }
                  }
                }
                """));
        assertThat(job.path("Migrate").path("MaxParallel").asInt()).isEqualTo(2);
        JsonNode m = job.path("TaskGroups").get(0).path("Migrate");
        assertThat(m.path("MaxParallel").asInt()).isEqualTo(2);
        assertThat(m.path("HealthCheck").asString()).isEqualTo("task_states");
        assertThat(m.path("MinHealthyTime").asLong()).isEqualTo(5_000_000_000L);
        assertThat(m.path("HealthyDeadline").asLong()).isEqualTo(120_000_000_000L);
        assertThat(job.path("TaskGroups").get(0).path("Update").path("AutoPromote").asBoolean()).isTrue();
    }

    @Test
    void canonicalizeFillsNomadsDefaults() throws Exception {
        ObjectNode job = JobDefaults.canonicalize(parser.parse(read("periodic.nomad.hcl")));
        assertThat(job.path("Namespace").asString()).isEqualTo("default");
        assertThat(job.path("Priority").asInt()).isEqualTo(50);
        assertThat(job.path("Region").asString()).isEqualTo("global");
        assertThat(job.path("Periodic").path("Specs").get(0).asString()).isEqualTo("0 2 * * *");
        assertThat(job.path("Periodic").path("ProhibitOverlap").asBoolean()).isTrue();
        assertThat(job.path("Periodic").path("TimeZone").asString()).isEqualTo("America/New_York");
        assertThat(job.has("Update")).isFalse();
        JsonNode g = job.path("TaskGroups").get(0);
        assertThat(g.path("Count").asInt()).isEqualTo(1);
        assertThat(g.path("RestartPolicy").path("Attempts").asInt()).isEqualTo(3);
        assertThat(g.path("ReschedulePolicy").path("Attempts").asInt()).isEqualTo(1);
        assertThat(g.path("ReschedulePolicy").path("DelayFunction").asString()).isEqualTo("constant");
        JsonNode t = g.path("Tasks").get(0);
        assertThat(t.path("Resources").path("CPU").asInt()).isEqualTo(100);
        assertThat(t.path("Resources").path("MemoryMB").asInt()).isEqualTo(300);
        assertThat(t.path("KillTimeout").asLong()).isEqualTo(5_000_000_000L);
        assertThat(t.path("LogConfig").path("MaxFileSizeMB").asInt()).isEqualTo(10);
    }

    @Test
    void periodicJobspecsGiveTheScheduleNomadWouldRun() throws Exception {
        ObjectNode crons = JobDefaults.canonicalize(parser.parse(read("periodic.nomad.hcl")));
        var schedule = dev.berth.job.PeriodicLauncher.schedule(crons);
        java.time.ZonedDateTime from = java.time.ZonedDateTime.parse("2026-11-26T10:00:00Z");
        assertThat(schedule.next(from).orElseThrow().toInstant()).isEqualTo(java.time.Instant.parse("2026-11-27T07:00:00Z"));
        assertThat(crons.path("Periodic").path("ProhibitOverlap").asBoolean()).isTrue();

        ObjectNode daily = JobDefaults.canonicalize(parser.parse(read("periodic-cron.nomad.hcl")));
        assertThat(daily.path("Periodic").path("Spec").asString()).isEqualTo("@daily");
        assertThat(daily.path("Periodic").path("TimeZone").asString()).isEqualTo("UTC");
        assertThat(dev.berth.job.PeriodicLauncher.active(daily)).isTrue();
        assertThat(dev.berth.job.PeriodicLauncher.schedule(daily).next(from).orElseThrow().toInstant())
                .isEqualTo(java.time.Instant.parse("2026-11-27T00:00:00Z"));
        assertThat(daily.path("TaskGroups").get(0).path("Tasks").get(0).path("Config").path("args").get(1).asString())
                .isEqualTo("echo sweeping ${NOMAD_JOB_PARENT_ID}");
    }

    @Test
    void parameterizedJobWithDispatchPayloadAndLifecycle() throws Exception {
        ObjectNode job = parser.parse(read("parameterized.nomad.hcl"));
        assertThat(job.path("ParameterizedJob").path("Payload").asString()).isEqualTo("required");
        assertThat(job.path("ParameterizedJob").path("MetaRequired").get(0).asString()).isEqualTo("input");
        JsonNode t = job.path("TaskGroups").get(0).path("Tasks").get(0);
        assertThat(t.path("DispatchPayload").path("File").asString()).isEqualTo("input.json");
        assertThat(t.path("Lifecycle").path("Hook").asString()).isEqualTo("prestart");
        assertThat(t.path("Config").path("args").get(0).asString()).isEqualTo("${NOMAD_TASK_DIR}/input.json");
    }

    /** Berth's exit rules in a restart block become the restart policy's lists, the group's inherited by its tasks. */
    @Test
    void restartExitRulesAreMappedToThePolicyKeys() throws Exception {
        ObjectNode job = parser.parse("""
                job "r" {
                  group "g" {
                    restart {
                      attempts              = 1
                      no_restart_exit_codes = [2, 3]
                      restart_exit_codes    = [75]
                    }
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/true"
                      }
                      restart {
                        no_restart_signals = ["SIGTERM"]
                        restart_signals    = ["SIGHUP"]
                      }
                    }
                  }
                }
                """);
        JsonNode group = job.path("TaskGroups").get(0).path("RestartPolicy");
        assertThat(group.path("NoRestartExitCodes").toString()).isEqualTo("[2,3]");
        assertThat(group.path("RestartExitCodes").toString()).isEqualTo("[75]");
        JsonNode task = job.path("TaskGroups").get(0).path("Tasks").get(0).path("RestartPolicy");
        assertThat(task.path("NoRestartSignals").toString()).isEqualTo("[\"SIGTERM\"]");
        assertThat(task.path("RestartSignals").toString()).isEqualTo("[\"SIGHUP\"]");
        JsonNode merged = JobDefaults.canonicalize(job).path("TaskGroups").get(0).path("Tasks").get(0).path("RestartPolicy");
        assertThat(merged.path("Attempts").asInt()).isEqualTo(1);
        assertThat(merged.path("NoRestartExitCodes").toString()).isEqualTo("[2,3]");
        assertThat(merged.path("NoRestartSignals").toString()).isEqualTo("[\"SIGTERM\"]");
    }

    @Test
    void aBrokenJobspecNamesLineAndColumn() {
        assertThatThrownBy(() -> parser.parse("job \"x\" {\n  group \"g\" {\n    count = = 2\n  }\n}\n"))
                .isInstanceOf(JobspecParser.JobspecException.class).hasMessage("input.hcl:3,13-14: Invalid expression; Expected the start of an expression, but found an invalid expression token.");
        assertThatThrownBy(() -> parser.parse("group \"g\" {\n}\n")).isInstanceOf(JobspecParser.JobspecException.class);
    }

    @Test
    void durationsAreNanoseconds() {
        var f = tools.jackson.databind.node.JsonNodeFactory.instance;
        assertThat(JobspecMapping.nanos(f.stringNode("1h30m"))).isEqualTo(5_400_000_000_000L);
        assertThat(JobspecMapping.nanos(f.stringNode("250ms"))).isEqualTo(250_000_000L);
        assertThat(JobspecMapping.nanos(f.stringNode("1.5s"))).isEqualTo(1_500_000_000L);
        assertThat(JobspecMapping.nanos(f.numberNode(7L))).isEqualTo(7L);
        assertThatThrownBy(() -> JobspecMapping.nanos(f.stringNode("ten seconds"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("time: invalid duration \"ten seconds\"");
    }
}
