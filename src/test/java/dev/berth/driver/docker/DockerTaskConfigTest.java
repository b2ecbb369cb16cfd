package dev.berth.driver.docker;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.berth.driver.TaskConfigValidationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerTaskConfigTest {

    @Test
    void parsesEveryKey() throws Exception {
        DockerTaskConfig config = DockerTaskConfig.parse(Map.of(
                "image", "berth-test/busybox:1",
                "command", "sh",
                "args", List.of("-c", "echo hi"),
                "entrypoint", List.of("/bin/env"),
                "env", Map.of("A", "1"),
                "labels", Map.of("team", "x"),
                "network_mode", "host",
                "volumes", List.of("/data:/data:ro", "rel:/rel"),
                "work_dir", "/tmp",
                "memory_hard_limit", 64));

        assertThat(config.cmd()).containsExactly("sh", "-c", "echo hi");
        assertThat(config.entrypoint()).containsExactly("/bin/env");
        assertThat(config.networkMode()).isEqualTo("host");
        assertThat(config.memoryHardLimitMb()).isEqualTo(64);
        assertThat(config.volumes()).containsExactly(new DockerTaskConfig.Volume("/data", "/data", true),
                new DockerTaskConfig.Volume("rel", "/rel", false));
        assertThat(config.volumes().get(1).hostPath(Path.of("/t/task"))).isEqualTo(Path.of("/t/task/rel"));
        assertThat(config.volumes().get(0).hostPath(Path.of("/t/task"))).isEqualTo(Path.of("/data"));
    }

    @Test
    void defaultsToNetworkNoneAndTheImagesCommand() throws Exception {
        DockerTaskConfig config = DockerTaskConfig.parse(Map.of("image", "berth-test/busybox:1"));

        assertThat(config.networkMode()).isEqualTo("none");
        assertThat(config.cmd()).isEmpty();
        assertThat(config.entrypoint()).isEmpty();
        assertThat(config.workDir()).isNull();
    }

    @Test
    void unknownKeyIsRejectedWithNomadsDiagnostic() {
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", "x", "bogus", 1)))
                .isInstanceOf(TaskConfigValidationException.class)
                .hasMessage("Extraneous JSON object property; No argument or block type is named \"bogus\".")
                .extracting(e -> ((TaskConfigValidationException) e).field()).isEqualTo("bogus");
    }

    @Test
    void missingImageIsRejected() {
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("command", "sh")))
                .isInstanceOf(TaskConfigValidationException.class)
                .hasMessageContaining("The argument \"image\" is required");
    }

    @Test
    void wrongTypesAreRejected() {
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", "x", "args", "not-a-list")))
                .hasMessageContaining("Inappropriate value for attribute \"args\": a list of string is required.");
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", "x", "env", List.of("A=1"))))
                .hasMessageContaining("\"env\": a map of string is required.");
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", "x", "memory_hard_limit", "lots")))
                .hasMessageContaining("\"memory_hard_limit\": a number is required.");
    }

    @Test
    void badVolumesAreRejected() {
        for (String spec : List.of("/only-one-part", "/a:relative", "/a:/b:rx", ":/b", "/a:/b:ro:extra")) {
            assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", "x", "volumes", List.of(spec))))
                    .as(spec).isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("Invalid volume");
        }
    }

    @Test
    void emptyImageIsRejected() {
        assertThatThrownBy(() -> DockerTaskConfig.parse(Map.of("image", " ")))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("must not be empty");
    }
}
