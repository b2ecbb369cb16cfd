package dev.berth.device.example;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.berth.device.Attribute;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DevicePlugin;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceStats;
import dev.berth.device.DeviceStream;
import dev.berth.device.PeriodicStream;
import dev.berth.device.Reservation;
import dev.berth.config.Sleeper;
import dev.berth.device.StatObject;
import dev.berth.device.StatValue;

/**
 * Files as devices: every regular file in {@code berth.devices.example.dir} is one instance (ID = file name) of a single
 * group {@code vendor/type/name}. The directory is re-read every {@code poll-interval}; a file appearing, disappearing or
 * changing health changes the fingerprint.
 *
 * <p>File format: the first line is the health: {@code unhealthy: <reason>} marks the instance unhealthy, anything else
 * (also an empty file) healthy. Every further line {@code key=value [unit]} is a statistic: a number becomes an int or
 * float value (with the unit when given), anything else a string. The summary is the file size in bytes.
 */
public class ExampleDevicePlugin implements DevicePlugin {

    public static final String NAME = "example";

    /** Environment variable a task gets: the reserved IDs, comma-separated. */
    public static final String ENV = "BERTH_EXAMPLE_DEVICES";

    private final DeviceProperties.Example properties;

    private final Sleeper sleeper;

    private final Clock clock;

    public ExampleDevicePlugin(DeviceProperties.Example properties, Sleeper sleeper, Clock clock) {
        this.properties = properties;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    private DeviceGroupKey key() {
        return new DeviceGroupKey(properties.vendor(), properties.type(), properties.name());
    }

    @Override
    public DeviceStream<List<DeviceGroup>> fingerprint() {
        return PeriodicStream.start("device-example-fingerprint", properties.pollInterval(), sleeper, true, this::scan);
    }

    @Override
    public DeviceStream<List<DeviceGroupStats>> stats(Duration interval) {
        return PeriodicStream.start("device-example-stats", interval, sleeper, false, this::readStats);
    }

    @Override
    public Reservation reserve(List<String> ids) throws IOException {
        List<String> unknown = new ArrayList<>();
        List<Reservation.Mount> mounts = new ArrayList<>();
        for (String id : ids) {
            Path file = fileOf(id);
            if (file == null || !Files.isRegularFile(file)) {
                unknown.add(id);
            }
            else {
                mounts.add(new Reservation.Mount("/dev/berth-example/" + id, file.toAbsolutePath().toString(), true));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IOException("unknown device IDs: " + String.join(",", unknown));
        }
        return new Reservation(Map.of(ENV, String.join(",", ids)), mounts, List.of());
    }

    /** The file for an ID, or null when the ID could escape the directory. */
    private Path fileOf(String id) {
        if (id.isEmpty() || id.contains("/") || id.equals(".") || id.equals("..")) {
            return null;
        }
        return properties.dir().resolve(id);
    }

    List<DeviceGroup> scan() throws IOException {
        List<DeviceInstance> instances = new ArrayList<>();
        for (Path file : files()) {
            String health = firstLine(file);
            if (health.startsWith("unhealthy")) {
                int colon = health.indexOf(':');
                String reason = colon < 0 ? "unhealthy" : health.substring(colon + 1).trim();
                instances.add(new DeviceInstance(file.getFileName().toString(), false, reason, null));
            }
            else {
                instances.add(DeviceInstance.healthy(file.getFileName().toString(), null));
            }
        }
        if (instances.isEmpty()) {
            return List.of();
        }
        Map<String, Attribute> attributes = Map.of("directory", Attribute.ofString(properties.dir().toString()));
        return List.of(new DeviceGroup(properties.vendor(), properties.type(), properties.name(), attributes, instances));
    }

    List<DeviceGroupStats> readStats() throws IOException {
        Map<String, DeviceStats> instanceStats = new LinkedHashMap<>();
        for (Path file : files()) {
            List<String> lines;
            long size;
            try {
                lines = Files.readAllLines(file);
                size = Files.size(file);
            }
            catch (java.nio.file.NoSuchFileException gone) {
                continue;
            }
            Map<String, StatValue> values = new LinkedHashMap<>();
            for (String line : lines.stream().skip(1).toList()) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq).trim(), parseValue(line.substring(eq + 1).trim()));
                }
            }
            instanceStats.put(file.getFileName().toString(), new DeviceStats(StatValue.ofInt(size, "B", "file size"),
                    StatObject.of(values), clock.instant()));
        }
        return instanceStats.isEmpty() ? List.of() : List.of(DeviceGroupStats.of(key(), instanceStats));
    }

    /** {@code 42}, {@code 41.5 W}, {@code busy}. */
    static StatValue parseValue(String text) {
        String[] parts = text.split("\\s+", 2);
        String unit = parts.length > 1 ? parts[1] : "";
        try {
            return StatValue.ofInt(Long.parseLong(parts[0]), unit, "");
        }
        catch (NumberFormatException notInt) {
            try {
                return StatValue.ofFloat(Double.parseDouble(parts[0]), unit, "");
            }
            catch (NumberFormatException notNumber) {
                return StatValue.ofString(text, "", "");
            }
        }
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> list = Files.list(properties.dir())) {
            return list.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static String firstLine(Path file) throws IOException {
        try (var reader = Files.newBufferedReader(file)) {
            String line = reader.readLine();
            return line == null ? "" : line.trim();
        }
        catch (java.nio.file.NoSuchFileException gone) {
            return "";
        }
        catch (UncheckedIOException ex) {
            throw ex.getCause();
        }
    }
}
