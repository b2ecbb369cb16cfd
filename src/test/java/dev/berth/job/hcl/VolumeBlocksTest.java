package dev.berth.job.hcl;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** A group's {@code volume} and a task's {@code volume_mount} blocks become Nomad's {@code Volumes} and {@code VolumeMounts}. */
class VolumeBlocksTest {

    @Test
    void hostVolumeAndItsMountsMapToNomadsJson() throws Exception {
        ObjectNode job = new JobspecParser().parse("""
                job "db" {
                  group "g" {
                    volume "data" {
                      type      = "host"
                      source    = "pg-data"
                    }
                    volume "certs" {
                      type      = "host"
                      source    = "tls"
                      read_only = true
                    }
                    task "t" {
                      driver = "exec"
                      config {
                        command = "/bin/true"
                      }
                      volume_mount {
                        volume      = "data"
                        destination = "/var/lib/pg"
                      }
                      volume_mount {
                        volume           = "certs"
                        destination      = "/etc/tls"
                        read_only        = true
                        propagation_mode = "private"
                      }
                    }
                  }
                }
                """);
        JsonNode group = job.path("TaskGroups").get(0);
        assertThat(group.path("Volumes").path("data").toString())
                .isEqualTo("{\"Name\":\"data\",\"Type\":\"host\",\"Source\":\"pg-data\",\"ReadOnly\":false}");
        assertThat(group.path("Volumes").path("certs").path("ReadOnly").asBoolean()).isTrue();
        JsonNode mounts = group.path("Tasks").get(0).path("VolumeMounts");
        assertThat(mounts).hasSize(2);
        assertThat(mounts.get(0).toString())
                .isEqualTo("{\"Volume\":\"data\",\"Destination\":\"/var/lib/pg\",\"ReadOnly\":false,\"PropagationMode\":\"private\"}");
        assertThat(mounts.get(1).path("ReadOnly").asBoolean()).isTrue();
    }
}
