package dev.berth.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Minimal reader of the Prometheus text format (enough for assertions; promtool is the real validator). */
public record Exposition(Map<String, String> types, Map<String, Integer> seriesPerFamily, Map<String, Double> samples) {

    public static Exposition parse(String text) {
        Map<String, String> types = new TreeMap<>();
        Map<String, Integer> series = new TreeMap<>();
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                types.put(parts[2], parts[3]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                int end = line.lastIndexOf(' ');
                String key = line.substring(0, end);
                samples.put(key, Double.parseDouble(line.substring(end + 1)));
                int brace = key.indexOf('{');
                String name = brace < 0 ? key : key.substring(0, brace);
                series.merge(name, 1, Integer::sum);
            }
        }
        return new Exposition(types, series, samples);
    }

    /** The value of the sample whose name and label text start with {@code prefix}, e.g. {@code foo{cpu="cpu0"}. */
    public double value(String exactKey) {
        Double value = samples.get(exactKey);
        if (value == null) {
            throw new AssertionError("no sample " + exactKey + " in " + samples.keySet());
        }
        return value;
    }
}
