package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.host.cgroup.CgroupMounts;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * {@code os.cgroups.version}: {@code 1} when a v1 memory hierarchy is mounted (also in hybrid mode, where an empty
 * cgroup2 sits at {@code /sys/fs/cgroup/unified}), else {@code 2} when cgroup2 is mounted, no attribute when there
 * are no cgroups. Read from the mount table ({@code /proc/self/mountinfo}, which OSHI does not expose) with the
 * drivers' {@link CgroupMounts}, so it matches the version the exec driver uses.
 */
@Component
class CgroupFingerprinter implements Fingerprinter {

    private final Path mountInfo;

    @Autowired
    CgroupFingerprinter() {
        this(Path.of("/proc/self/mountinfo"));
    }

    CgroupFingerprinter(Path mountInfo) {
        this.mountInfo = mountInfo;
    }

    @Override
    public String name() {
        return "cgroup";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) throws IOException {
        return detect(Files.readAllLines(mountInfo))
                .map(version -> FingerprintResult.ofAttributes(Map.of("os.cgroups.version", version)))
                .orElseGet(FingerprintResult::empty);
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
