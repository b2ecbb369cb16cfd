package dev.berth.volume;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * The host volumes of the agent's configuration (Nomad's client {@code host_volume "name" { path, read_only }} blocks),
 * as {@code berth.host-volumes.<name>.path} and {@code .read-only}. Each path must be absolute and exist when the agent
 * starts: a volume the node cannot offer stops start-up with a message naming its key, as any other configuration
 * mistake does (Nomad's client refuses such a volume too).
 *
 * Dynamic host volumes that the built-in {@code mkdir} plugin creates live under {@code berth.host-volumes-dir}
 * (Nomad's client {@code host_volumes_dir}), by default {@code <berth.data-dir>/host_volumes}.
 *
 * @param hostVolumes    the volumes by name
 * @param hostVolumesDir where the {@code mkdir} plugin makes dynamic host volumes; null for the default
 */
@ConfigurationProperties("berth")
public record HostVolumeProperties(Map<String, Volume> hostVolumes, Path hostVolumesDir) {

    @ConstructorBinding
    public HostVolumeProperties {
        hostVolumes = hostVolumes == null ? Map.of() : new TreeMap<>(hostVolumes);
        hostVolumes.forEach(HostVolumeProperties::check);
        if (hostVolumesDir != null) {
            PropertyChecks.check("berth.host-volumes-dir", hostVolumesDir, Path::isAbsolute,
                    "must be an absolute path, was " + hostVolumesDir);
        }
    }

    /** Configured volumes, dynamic ones in the default directory. */
    public HostVolumeProperties(Map<String, Volume> hostVolumes) {
        this(hostVolumes, null);
    }

    /** Where the {@code mkdir} plugin makes volumes: {@code berth.host-volumes-dir}, else {@code <dataDir>/host_volumes}. */
    public Path volumesDir(Path dataDir) {
        return hostVolumesDir != null ? hostVolumesDir : dataDir.toAbsolutePath().resolve("host_volumes");
    }

    /**
     * @param path     absolute path of an existing directory or file on the host
     * @param readOnly whether tasks may only read it
     */
    public record Volume(Path path, @DefaultValue("false") boolean readOnly) {
    }

    private static void check(String name, Volume volume) {
        String key = "berth.host-volumes." + name + ".path";
        PropertyChecks.notBlank("berth.host-volumes." + name, name.strip());
        PropertyChecks.required(key, volume.path());
        PropertyChecks.check(key, volume.path(), Path::isAbsolute, "must be an absolute path, was " + volume.path());
        PropertyChecks.check(key, volume.path(), Files::exists, "must exist on the host, " + volume.path() + " does not");
    }
}
