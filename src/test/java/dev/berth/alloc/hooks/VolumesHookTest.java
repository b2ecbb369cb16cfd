package dev.berth.alloc.hooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.spec.VolumeMountSpec;
import dev.berth.alloc.spec.VolumeSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.driver.TaskDevice;
import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.TestNodes;
import dev.berth.volume.HostVolumeProperties;
import dev.berth.volume.HostVolumes;

import static org.assertj.core.api.Assertions.assertThat;

/** Where each driver's task finds a mounted host volume, and when it is read-only. */
class VolumesHookTest {

    @TempDir
    Path tmp;

    private PrestartResult prestart(String driver, boolean volumeReadOnly, boolean groupReadOnly, boolean mountReadOnly) throws Exception {
        Path source = Files.createDirectories(tmp.resolve("volumes/data"));
        NodeRegistry node = TestNodes.registry(Clock.systemUTC());
        HostVolumes volumes = new HostVolumes(new HostVolumeProperties(Map.of(
                "data", new HostVolumeProperties.Volume(source, volumeReadOnly))), node);
        TaskSpec task = new TaskSpec("t", driver, Map.of(), null, null, null, null, null, null, null, null, null, null, null, null,
                List.of(new VolumeMountSpec("v", "/srv/data", mountReadOnly, null)));
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(task), null, null, null, null, null,
                Map.of("v", new VolumeSpec("v", "host", "data", groupReadOnly)));
        AllocationSpec alloc = new AllocationSpec("a1", "j.g[0]", "default", "j",
                new dev.berth.alloc.spec.JobSpec("j", "j", "batch", "default", null, null, null, List.of(group)), "g", "run", 1L, null, null);
        Path taskDir = Files.createDirectories(tmp.resolve("alloc/a1/t"));
        return new VolumesHook(volumes, Clock.systemUTC()).prestart(new TaskHookContext(alloc, group, task, tmp.resolve("alloc/a1"),
                taskDir, null, e -> { }));
    }

    @Test
    void dockerBindsAtTheDestination() throws Exception {
        assertThat(prestart("docker", false, false, false).devices())
                .containsExactly(new TaskDevice.Mount(tmp.resolve("volumes/data").toString(), "/srv/data", false));
    }

    @Test
    void execBindsUnderTheTaskDirectoryOntoAMountPointTheHookMade() throws Exception {
        Path target = tmp.resolve("alloc/a1/t/srv/data");
        assertThat(prestart("exec", false, false, true).devices())
                .containsExactly(new TaskDevice.Mount(tmp.resolve("volumes/data").toString(), target.toString(), true));
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void rawExecGetsASymbolicLinkAndNoMount() throws Exception {
        PrestartResult result = prestart("raw_exec", false, false, false);
        assertThat(result.devices()).isEmpty();
        Path link = tmp.resolve("alloc/a1/t/srv/data");
        assertThat(Files.readSymbolicLink(link)).isEqualTo(tmp.resolve("volumes/data"));
    }

    @Test
    void aReadOnlyVolumeOrRequestMakesTheMountReadOnly() throws Exception {
        assertThat(prestart("docker", true, false, false).devices()).extracting(d -> ((TaskDevice.Mount) d).readOnly()).containsExactly(true);
    }

    @Test
    void aReadOnlyGroupRequestMakesTheMountReadOnly() throws Exception {
        assertThat(prestart("docker", false, true, false).devices()).extracting(d -> ((TaskDevice.Mount) d).readOnly()).containsExactly(true);
    }

    @Test
    void aMissingHostVolumeFailsTheHook() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
            NodeRegistry node = TestNodes.registry(Clock.systemUTC());
            HostVolumes none = new HostVolumes(new HostVolumeProperties(Map.of()), node);
            TaskSpec task = new TaskSpec("t", "exec", Map.of(), null, null, null, null, null, null, null, null, null, null, null, null,
                    List.of(new VolumeMountSpec("v", "/d", false, null)));
            TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(task), null, null, null, null, null,
                    Map.of("v", new VolumeSpec("v", "host", "gone", false)));
            new VolumesHook(none, Clock.systemUTC()).prestart(new TaskHookContext(null, group, task, tmp, tmp, null, e -> { }));
        }).hasMessage("host volume \"gone\" of volume \"v\" is not on this node");
    }
}
