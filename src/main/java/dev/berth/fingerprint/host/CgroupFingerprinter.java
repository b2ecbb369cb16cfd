package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * {@code os.cgroups.version}: {@code 2} when {@code /sys/fs/cgroup} itself is a cgroup2 mount (unified), {@code 1}
 * when v1 controllers are mounted (also in hybrid mode, where cgroup2 sits at {@code /sys/fs/cgroup/unified} without
 * controllers — as Nomad decides), no attribute when there are no cgroups. Read from the mount table
 * ({@code /proc/self/mountinfo}), which OSHI does not expose.
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

    /** The cgroup version from mountinfo lines, if cgroups are mounted at all. */
    static Optional<String> detect(List<String> mountInfoLines) {
        boolean v1 = false;
        boolean v2 = false;
        for (String line : mountInfoLines) {
            // "<id> <parent> <maj:min> <root> <mount point> <options> [optional fields...] - <fstype> <source> <super options>"
            int separator = line.indexOf(" - ");
            if (separator < 0) {
                continue;
            }
            String[] before = line.substring(0, separator).split(" ");
            String[] after = line.substring(separator + 3).split(" ");
            if (before.length < 5 || after.length < 1) {
                continue;
            }
            String mountPoint = before[4];
            String fsType = after[0];
            if ("cgroup2".equals(fsType) && "/sys/fs/cgroup".equals(mountPoint)) {
                return Optional.of("2");
            }
            v1 |= "cgroup".equals(fsType);
            v2 |= "cgroup2".equals(fsType);
        }
        if (v1) {
            return Optional.of("1");
        }
        return v2 ? Optional.of("2") : Optional.empty();
    }
}
