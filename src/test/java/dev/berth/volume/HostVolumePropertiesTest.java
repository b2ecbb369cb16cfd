package dev.berth.volume;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.berth.config.PropertyChecks.InvalidPropertyException;
import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.TestNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code berth.host-volumes.<name>.*} bound as at start-up: valid volumes reach the node, a bad path stops start-up naming its key. */
class HostVolumePropertiesTest {

    @TempDir
    Path dir;

    static HostVolumeProperties bind(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(map)).bindOrCreate("berth", HostVolumeProperties.class);
    }

    @Test
    void configuredVolumesAreTheNodesHostVolumes() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path cert = Files.writeString(dir.resolve("ca.pem"), "pem");
        HostVolumeProperties properties = bind("berth.host-volumes.data.path", data.toString(),
                "berth.host-volumes.ca.path", cert.toString(), "berth.host-volumes.ca.read-only", "true");
        NodeRegistry node = TestNodes.registry(java.time.Clock.systemUTC());

        HostVolumes volumes = new HostVolumes(properties, node);

        assertThat(node.current().hostVolumes()).containsExactly(
                Map.entry("ca", new HostVolume("ca", cert.toString(), true, "")),
                Map.entry("data", new HostVolume("data", data.toString(), false, "")));
        assertThat(volumes.get("data")).contains(new HostVolume("data", data.toString(), false, ""));
        assertThat(volumes.get("other")).isEmpty();
    }

    @Test
    void noVolumesByDefault() {
        assertThat(bind().hostVolumes()).isEmpty();
    }

    @Test
    void dynamicVolumesLiveInTheDataDirUnlessAnotherDirectoryIsConfigured() {
        assertThat(bind().volumesDir(Path.of("/var/lib/berth"))).isEqualTo(Path.of("/var/lib/berth/host_volumes"));
        assertThat(bind("berth.host-volumes-dir", "/srv/volumes").volumesDir(Path.of("/var/lib/berth")))
                .isEqualTo(Path.of("/srv/volumes"));
        assertThatThrownBy(() -> bind("berth.host-volumes-dir", "volumes"))
                .isInstanceOf(BindException.class).rootCause().isInstanceOf(InvalidPropertyException.class)
                .hasMessage("'berth.host-volumes-dir' must be an absolute path, was volumes");
    }

    @Test
    void aRelativePathIsRefusedNamingItsKey() {
        assertThatThrownBy(() -> bind("berth.host-volumes.data.path", "relative/data"))
                .isInstanceOf(BindException.class).rootCause().isInstanceOf(InvalidPropertyException.class)
                .hasMessage("'berth.host-volumes.data.path' must be an absolute path, was relative/data");
    }

    @Test
    void aMissingPathIsRefusedNamingItsKey() {
        Path absent = dir.resolve("absent");
        assertThatThrownBy(() -> bind("berth.host-volumes.data.path", absent.toString()))
                .isInstanceOf(BindException.class).rootCause().isInstanceOf(InvalidPropertyException.class)
                .hasMessage("'berth.host-volumes.data.path' must exist on the host, " + absent + " does not");
    }

    @Test
    void aVolumeWithoutAPathIsRefused() {
        assertThatThrownBy(() -> bind("berth.host-volumes.data.read-only", "true"))
                .isInstanceOf(BindException.class).rootCause().isInstanceOf(InvalidPropertyException.class)
                .hasMessage("'berth.host-volumes.data.path' must be set");
    }
}
