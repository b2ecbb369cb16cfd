package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import oshi.SystemInfo;
import oshi.software.os.OSFileStore;

import org.springframework.stereotype.Component;

import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;
import dev.berth.fingerprint.NodeResources;

/**
 * The file system that holds the alloc dir ({@code berth.data-dir}/alloc): {@code unique.storage.volume} (its
 * device), {@code unique.storage.bytestotal}, {@code unique.storage.bytesfree} and {@code Disk.DiskMB} (free MiB,
 * as Nomad). The file store is the OSHI store with the longest mount point that contains the alloc dir (or its
 * nearest existing parent, before the dir is created).
 */
@Component
class StorageFingerprinter implements Fingerprinter {

    private static final long BYTES_PER_MIB = 1024L * 1024L;

    private final SystemInfo systemInfo;
    private final Path allocDir;

    StorageFingerprinter(SystemInfo systemInfo, BerthProperties properties) {
        this.systemInfo = systemInfo;
        this.allocDir = properties.allocDir();
    }

    @Override
    public String name() {
        return "storage";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) throws IOException {
        Path path = existingAncestor(allocDir.toAbsolutePath().normalize()).toRealPath();
        List<OSFileStore> stores = systemInfo.getOperatingSystem().getFileSystem().getFileStores();
        OSFileStore store = containingStore(path, stores)
                .orElseThrow(() -> new IOException("no file system found for " + path));
        store.updateAttributes();
        long total = store.getTotalSpace();
        long free = store.getUsableSpace();
        return new FingerprintResult(Map.of(
                "unique.storage.volume", store.getVolume().isBlank() ? store.getName() : store.getVolume(),
                "unique.storage.bytestotal", Long.toString(total),
                "unique.storage.bytesfree", Long.toString(free)),
                null, null, new NodeResources.Disk(free / BYTES_PER_MIB), null);
    }

    static Optional<OSFileStore> containingStore(Path path, List<OSFileStore> stores) {
        return stores.stream()
                .filter(s -> s.getMount() != null && !s.getMount().isEmpty() && path.startsWith(Path.of(s.getMount())))
                .max(Comparator.comparingInt(s -> Path.of(s.getMount()).getNameCount()));
    }

    private static Path existingAncestor(Path path) {
        Path current = path;
        while (current != null && !Files.exists(current)) {
            current = current.getParent();
        }
        return current == null ? Path.of("/") : current;
    }
}
