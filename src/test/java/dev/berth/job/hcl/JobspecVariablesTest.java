package dev.berth.job.hcl;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code /v1/jobs/parse}'s {@code Variables}: values for the jobspec's variable blocks, judged by their validation rules. */
class JobspecVariablesTest {

    static final String JOB = """
            variable "dc" {
              type    = string
              default = "dc1"
              validation {
                condition     = var.dc != "bad"
                error_message = "The datacenter must not be bad."
              }
            }
            variable "n" {
              type = number
            }
            job "v" {
              datacenters = [var.dc]
              group "g" {
                count = var.n
                task "t" {
                  driver = "raw_exec"
                  config {
                    command = "/bin/true"
                  }
                }
              }
            }
            """;

    final JobspecParser parser = new JobspecParser();

    @Test
    void variablesReplaceDefaultsAndFillThoseWithout() throws Exception {
        ObjectNode job = parser.parse(JOB, "input.hcl", "dc = \"dc9\"\nn  = 4\n");
        assertThat(job.path("Datacenters").get(0).asString()).isEqualTo("dc9");
        assertThat(job.path("TaskGroups").get(0).path("Count").asInt()).isEqualTo(4);
        ObjectNode defaults = parser.parse(JOB, "input.hcl", "n = 1");
        assertThat(defaults.path("Datacenters").get(0).asString()).isEqualTo("dc1");
    }

    @Test
    void aFailedValidationIsRefusedWithItsMessageAndRule() {
        assertThatThrownBy(() -> parser.parse(JOB, "input.hcl", "dc = \"bad\"\nn = 1\n")).isInstanceOf(JobspecParser.JobspecException.class)
                .hasMessage("input.hcl:4,3-13: Invalid value for variable; The datacenter must not be bad.\n\n"
                        + "This was checked by the validation rule at input.hcl:4,3-13.");
    }

    @Test
    void anUndeclaredOrBrokenVariableIsRefusedWithItsPlace() {
        assertThatThrownBy(() -> parser.parse(JOB, "input.hcl", "n = 1\nzone = \"a\"\n")).isInstanceOf(JobspecParser.JobspecException.class)
                .hasMessage("variables.hcl:2,1-5: Undefined variable; A \"zone\" variable was set but was not declared. "
                        + "Declare it with a variable block in the jobspec.");
        assertThatThrownBy(() -> parser.parse(JOB, "input.hcl", "n = \n")).isInstanceOf(JobspecParser.JobspecException.class)
                .hasMessageStartingWith("variables.hcl:1,5-2,1: Invalid expression;");
    }

    @Test
    void constraintOperatorsWrittenAsArgumentsAndActionsAreKept() throws Exception {
        ObjectNode job = parser.parse("""
                job "a" {
                  constraint {
                    attribute = "${attr.kernel.name}"
                    regexp    = "^lin"
                  }
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      action "hello" {
                        command = "/bin/echo"
                        args    = ["hi"]
                      }
                    }
                  }
                }
                """);
        assertThat(job.path("Constraints").get(0).path("Operand").asString()).isEqualTo("regexp");
        assertThat(job.path("Constraints").get(0).path("RTarget").asString()).isEqualTo("^lin");
        ObjectNode action = (ObjectNode) job.path("TaskGroups").get(0).path("Tasks").get(0).path("Actions").get(0);
        assertThat(action.path("Name").asString()).isEqualTo("hello");
        assertThat(action.path("Command").asString()).isEqualTo("/bin/echo");
        assertThat(action.path("Args").get(0).asString()).isEqualTo("hi");
    }

    @Test
    void aTaskInTheJobRunsInAGroupOfItsNameAndDriverConfigMayHoldBlocks() throws Exception {
        ObjectNode job = parser.parse("""
                job "a" {
                  task "solo" {
                    driver = "docker"
                    config {
                      image = "busybox"
                      labels {
                        team = "x"
                      }
                    }
                  }
                }
                """);
        assertThat(job.path("TaskGroups").get(0).path("Name").asString()).isEqualTo("solo");
        assertThat(job.path("TaskGroups").get(0).path("Tasks").get(0).path("Config").path("labels").toString()).contains("team");
    }
}
