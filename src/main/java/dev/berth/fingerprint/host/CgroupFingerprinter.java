package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;
import dev.berth.host.cgroup.CgroupSetup;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * {@code os.cgroups.version}: {@code 1} when a v1 memory hierarchy is mounted (also in hybrid mode, where an empty
 * cgroup2 sits at {@code /sys/fs/cgroup/unified}), else {@code 2} when cgroup2 is mounted, no attribute when there
 * are no cgroups. Read from the mount table ({@code /proc/self/mountinfo}, which OSHI does not expose) with the
 * drivers' {@link CgroupMounts}, so it matches the version the exec driver uses.
 *
 * <p>With the agent's {@link CgroupManager}, also what task cgroups get (readying them, see {@link CgroupManager#setup()}):
 * {@code unique.cgroup.mountpoint}, {@code unique.cgroup.parent} (the node's parent directory, one per v1 hierarchy,
 * comma-separated) and {@code unique.cgroup.controllers} (the controllers delegated to task cgroups, comma-separated);
 * when task cgroups cannot be made, {@code unique.cgroup.unavailable} holds the reason instead.
 */
@Component
class CgroupFingerprinter implements Fingerprinter {

    private final Path mountInfo;
    private final CgroupManager cgroups;

    @Autowired
    CgroupFingerprinter(CgroupManager cgroups) {
        this(Path.of("/proc/self/mountinfo"), cgroups);
    }

    /** @param cgroups the agent's manager, or null to report the version alone */
    CgroupFingerprinter(Path mountInfo, CgroupManager cgroups) {
        this.mountInfo = mountInfo;
        this.cgroups = cgroups;
    }

    @Override
    public String name() {
        return "cgroup";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) throws IOException {
        Optional<String> version = detect(Files.readAllLines(mountInfo));
        if (version.isEmpty()) {
            return FingerprintResult.empty();
        }
        Map<String, String> attributes = new TreeMap<>();
        attributes.put("os.cgroups.version", version.get());
        if (cgroups != null && cgroups.version() != CgroupVersion.NONE) {
            attributes.put("unique.cgroup.mountpoint", cgroups.mountPoint().toString());
            switch (cgroups.setup()) {
                case CgroupSetup.Ready ready -> {
                    attributes.put("unique.cgroup.parent", join(ready.parents()));
                    attributes.put("unique.cgroup.controllers", String.join(",", ready.controllers()));
                }
                case CgroupSetup.Unavailable(String reason) -> attributes.put("unique.cgroup.unavailable", reason);
            }
        }
        return FingerprintResult.ofAttributes(attributes);
    }

    private static String join(Collection<Path> paths) {
        return String.join(",", paths.stream().map(Path::toString).toList());
    }

    /**
     * The cgroup version from mountinfo lines, if cgroups are mounted at all. Decided by the drivers' own
     * {@link CgroupMounts} so the attribute always names the version task cgroups are really made in.
     */
    static Optional<String> detect(List<String> mountInfoLines) {
        return switch (CgroupMounts.parse(mountInfoLines).version()) {
            case V1 -> Optional.of("1");
            case V2 -> Optional.of("2");
            case NONE -> Optional.empty();
        };
    }
}
