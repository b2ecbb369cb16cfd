package dev.berth.job.hcl;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The jobspec's {@code artifact} blocks become Nomad's {@code Artifacts} JSON, runtime variables left for the client. */
class ArtifactBlocksTest {

    @Test
    void artifactBlocksMapToNomadsFieldNames() throws Exception {
        ObjectNode job = new JobspecParser().parse("""
                job "a" {
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "local/run.sh"
                      }
                      artifact {
                        source      = "https://example.com/app-${NOMAD_ALLOC_INDEX}.tar.gz"
                        destination = "local/app"
                        mode        = "dir"
                        insecure    = true
                        options {
                          checksum = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
                          archive  = false
                        }
                        headers {
                          X-Token = "secret"
                        }
                      }
                      artifact {
                        source = "https://example.com/run.sh"
                      }
                    }
                  }
                }
                """);
        JsonNode artifacts = job.path("TaskGroups").get(0).path("Tasks").get(0).path("Artifacts");
        assertThat(artifacts.size()).isEqualTo(2);
        JsonNode a = artifacts.get(0);
        assertThat(a.path("GetterSource").asString()).isEqualTo("https://example.com/app-${NOMAD_ALLOC_INDEX}.tar.gz");
        assertThat(a.path("RelativeDest").asString()).isEqualTo("local/app");
        assertThat(a.path("GetterMode").asString()).isEqualTo("dir");
        assertThat(a.path("GetterInsecure").asBoolean()).isTrue();
        assertThat(a.path("GetterOptions").path("checksum").asString())
                .isEqualTo("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        assertThat(a.path("GetterOptions").path("archive").asString()).isEqualTo("false");
        assertThat(a.path("GetterHeaders").path("X-Token").asString()).isEqualTo("secret");
        JsonNode b = artifacts.get(1);
        assertThat(b.path("GetterSource").asString()).isEqualTo("https://example.com/run.sh");
        assertThat(b.has("RelativeDest")).isFalse();
        assertThat(b.has("GetterMode")).isFalse();
    }
}
