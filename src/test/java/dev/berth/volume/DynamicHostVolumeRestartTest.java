package dev.berth.volume;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.berth.Application;
import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dynamic host volumes across an agent restart (a second agent on the same data dir): a {@code mkdir} volume is offered
 * again, its directory made again when it went missing while the agent was down; a registered volume whose path is gone
 * is kept but {@code unavailable}, not offered.
 */
class DynamicHostVolumeRestartTest {

    @TempDir
    Path dir;

    private ConfigurableApplicationContext agent() {
        return new SpringApplicationBuilder(Application.class).run("--berth.data-dir=" + dir.resolve("data"),
                "--server.port=0", "--server.address=127.0.0.1", "--spring.main.keep-alive=false", "--berth.acl.enabled=false");
    }

    @Test
    void volumesAreOfferedAgainAfterARestart() throws Exception {
        Path registeredPath = Files.createDirectories(dir.resolve("registered"));
        DynamicHostVolume created;
        DynamicHostVolume registered;
        try (ConfigurableApplicationContext first = agent()) {
            DynamicHostVolumes volumes = first.getBean(DynamicHostVolumes.class);
            String nodeId = first.getBean(NodeRegistry.class).current().id();
            created = volumes.create(request("made", "", "mkdir", Map.of("mode", "0755")));
            registered = volumes.register(request("taken", nodeId, "", Map.of()).withHostPath(registeredPath.toString()));
        }
        Path made = Path.of(created.hostPath());
        assertThat(made).isEqualTo(dir.resolve("data/host_volumes").resolve(created.id()).toAbsolutePath());
        Files.delete(made);
        Files.delete(registeredPath);

        try (ConfigurableApplicationContext second = agent()) {
            DynamicHostVolumes volumes = second.getBean(DynamicHostVolumes.class);
            assertThat(volumes.get("default", created.id())).contains(created);
            assertThat(made).isDirectory();
            assertThat(second.getBean(HostVolumes.class).get("made"))
                    .contains(new HostVolume("made", made.toString(), false, created.id()));
            assertThat(volumes.get("default", registered.id()).orElseThrow().state()).isEqualTo("unavailable");
            assertThat(second.getBean(HostVolumes.class).get("taken")).isEmpty();
        }
    }

    private static DynamicHostVolume request(String name, String nodeId, String plugin, Map<String, String> parameters) {
        return new DynamicHostVolume("default", "", name, plugin, "", nodeId, null, 0, 0, 0, null, parameters, "", "", 0, 0, 0, 0);
    }
}
