package dev.berth.device.nvidia;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceProperties.JobMappingFormat;
import dev.berth.device.DeviceUpdateListener;

/**
 * Keeps dcgm-exporter's {@code --hpc-job-mapping-dir} in step with the reservations, so a stock dcgm-exporter labels
 * its GPU metrics {@code hpc_job="<allocation>"}. dcgm-exporter reads every file whose name is a GPU index ({@code 0})
 * or, for a MIG instance, {@code <gpu index>.<gpu instance id>} (anything else it skips), one job per line.
 *
 * <p>Each such file is rewritten atomically (a temporary file renamed over it) whenever reservations or the
 * fingerprint change, holding one line per task that holds the instance (the allocation ID, or
 * {@code <job>/<alloc id>/<task>}); a file for an instance nobody holds is removed. At start every index-named file in
 * the directory is removed first, then the files are written from the persisted reservations as soon as the plugin
 * has fingerprinted (the index of each GPU UUID is only known then).
 */
public class NvidiaJobMapping implements DeviceUpdateListener {

    private static final Logger log = LoggerFactory.getLogger(NvidiaJobMapping.class);

    /** dcgm-exporter's own filter for mapping file names. */
    static final Pattern DCGM_FILE = Pattern.compile("^\\d+(\\.\\d+)?$");

    private final Path dir;

    private final JobMappingFormat format;

    private final NvidiaDevicePlugin plugin;

    private final DeviceAllocator allocator;

    /** File name → content written last. */
    private final Map<String, String> written = new HashMap<>();

    public NvidiaJobMapping(Path dir, JobMappingFormat format, NvidiaDevicePlugin plugin, DeviceAllocator allocator) throws IOException {
        this.dir = dir;
        this.format = format;
        this.plugin = plugin;
        this.allocator = allocator;
        Files.createDirectories(dir);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if ((DCGM_FILE.matcher(name).matches() || name.startsWith(".berth-")) && Files.isRegularFile(file)) {
                    Files.deleteIfExists(file);
                }
            }
        }
        allocator.onChange(this::write);
        write();
    }

    @Override
    public void devicesUpdated(List<DeviceGroup> devices) {
        write();
    }

    /** Brings the directory in line with the current reservations and fingerprint. */
    public synchronized void write() {
        Map<String, String> names = plugin.dcgmNames();
        Map<String, TreeSet<String>> lines = new TreeMap<>();
        allocator.holders().forEach((id, holder) -> {
            String name = names.get(id);
            if (name != null) {
                lines.computeIfAbsent(name, (k) -> new TreeSet<>()).add(format == JobMappingFormat.JOB_ALLOC_TASK
                        ? holder.task().job() + "/" + holder.task().allocId() + "/" + holder.task().task()
                        : holder.task().allocId());
            }
        });
        Map<String, String> wanted = new HashMap<>();
        lines.forEach((name, jobs) -> wanted.put(name, String.join("\n", jobs) + "\n"));
        try {
            for (String stale : new ArrayList<>(written.keySet())) {
                if (!wanted.containsKey(stale)) {
                    Files.deleteIfExists(dir.resolve(stale));
                    written.remove(stale);
                }
            }
            for (Map.Entry<String, String> file : wanted.entrySet()) {
                if (!file.getValue().equals(written.get(file.getKey()))) {
                    Path tmp = dir.resolve(".berth-" + file.getKey() + ".tmp");
                    Files.writeString(tmp, file.getValue(), StandardCharsets.UTF_8);
                    Files.move(tmp, dir.resolve(file.getKey()), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    written.put(file.getKey(), file.getValue());
                }
            }
        }
        catch (IOException ex) {
            log.warn("writing the dcgm-exporter job mapping files in {} failed", dir, ex);
        }
    }
}
