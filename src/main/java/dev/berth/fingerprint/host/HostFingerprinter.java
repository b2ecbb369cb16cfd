package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import oshi.SystemInfo;
import oshi.software.os.OperatingSystem;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.config.Hostnames;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * Operating system and kernel: {@code os.name} (the distribution ID as in {@code /etc/os-release}, e.g.
 * {@code debian}, like Nomad's gopsutil platform), {@code os.version}, {@code kernel.name} ({@code linux}),
 * {@code kernel.version} ({@code uname -r}), {@code kernel.arch} ({@code uname -m}), {@code unique.hostname} and
 * {@code unique.host_id} (the hardware UUID when the machine has one).
 */
@Component
class HostFingerprinter implements Fingerprinter {

    private final SystemInfo systemInfo;
    private final Path osRelease;

    @Autowired
    HostFingerprinter(SystemInfo systemInfo) {
        this(systemInfo, Path.of("/etc/os-release"));
    }

    HostFingerprinter(SystemInfo systemInfo, Path osRelease) {
        this.systemInfo = systemInfo;
        this.osRelease = osRelease;
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        OperatingSystem os = systemInfo.getOperatingSystem();
        Map<String, String> attributes = new LinkedHashMap<>();
        String family = os.getFamily();
        osReleaseValue("ID").or(() -> Optional.ofNullable(family).map(f -> f.split("\\s+")[0].toLowerCase(Locale.ROOT)))
                .filter(s -> !s.isBlank())
                .ifPresent(v -> attributes.put("os.name", v));
        osReleaseValue("VERSION_ID").or(() -> Optional.ofNullable(os.getVersionInfo().getVersion()))
                .filter(s -> !s.isBlank() && !"unknown".equalsIgnoreCase(s))
                .ifPresent(v -> attributes.put("os.version", v));
        attributes.put("kernel.name", System.getProperty("os.name").toLowerCase(Locale.ROOT));
        attributes.put("kernel.version", System.getProperty("os.version"));
        attributes.put("kernel.arch", ArchFingerprinter.kernelArch(System.getProperty("os.arch")));
        // The kernel's host name, read without name resolution (OSHI's may consult the resolver).
        String hostName = Hostnames.local();
        if (hostName != null && !hostName.isBlank()) {
            attributes.put("unique.hostname", hostName);
        }
        String uuid = systemInfo.getHardware().getComputerSystem().getHardwareUUID();
        if (uuid != null && !uuid.isBlank() && !"unknown".equalsIgnoreCase(uuid)) {
            attributes.put("unique.host_id", uuid.toLowerCase(Locale.ROOT));
        }
        return FingerprintResult.ofAttributes(attributes);
    }

    /** A value from os-release ({@code KEY=value}, optionally quoted); empty when the file or key is absent. */
    Optional<String> osReleaseValue(String key) {
        List<String> lines;
        try {
            lines = Files.readAllLines(osRelease);
        } catch (IOException ex) {
            return Optional.empty();
        }
        return parseOsRelease(lines, key);
    }

    static Optional<String> parseOsRelease(List<String> lines, String key) {
        for (String line : lines) {
            if (line.startsWith(key + "=")) {
                String value = line.substring(key.length() + 1).trim();
                if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                        || value.startsWith("'") && value.endsWith("'"))) {
                    value = value.substring(1, value.length() - 1);
                }
                return value.isEmpty() ? Optional.empty() : Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
