package dev.berth.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A set of CPU core IDs, as the kernel and Nomad write it: sorted, ranges collapsed ({@code 0-3,8,10-11}), the format
 * of {@code cpuset.cpus}, {@code Cpus_allowed_list} and {@code NOMAD_CPU_CORES}. Immutable.
 *
 * @param ids the core IDs, ascending, each once
 */
public record CoreSet(List<Integer> ids) {

    public static final CoreSet EMPTY = new CoreSet(List.of());

    public CoreSet {
        TreeSet<Integer> sorted = new TreeSet<>();
        for (Integer id : ids) {
            if (id == null || id < 0) {
                throw new IllegalArgumentException("core IDs must be 0 or more, were " + ids);
            }
            sorted.add(id);
        }
        ids = List.copyOf(sorted);
    }

    public static CoreSet of(Collection<Integer> ids) {
        return new CoreSet(List.copyOf(ids));
    }

    public static CoreSet of(Integer... ids) {
        return new CoreSet(List.of(ids));
    }

    /**
     * Parses the kernel's list format: comma-separated IDs and {@code a-b} ranges; blank is empty.
     *
     * @throws IllegalArgumentException naming the part that is not an ID or range
     */
    public static CoreSet parse(String text) {
        List<Integer> ids = new ArrayList<>();
        String stripped = text == null ? "" : text.strip();
        if (stripped.isEmpty()) {
            return EMPTY;
        }
        for (String part : stripped.split(",")) {
            String p = part.strip();
            int dash = p.indexOf('-');
            try {
                if (dash < 0) {
                    ids.add(Integer.parseInt(p));
                } else {
                    int from = Integer.parseInt(p.substring(0, dash).strip());
                    int to = Integer.parseInt(p.substring(dash + 1).strip());
                    if (from > to) {
                        throw new IllegalArgumentException("core range \"" + p + "\" runs backwards");
                    }
                    for (int id = from; id <= to; id++) {
                        ids.add(id);
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + p + "\" is not a core ID or range (like 0-3,8)");
            }
        }
        return new CoreSet(ids);
    }

    public int size() {
        return ids.size();
    }

    public boolean isEmpty() {
        return ids.isEmpty();
    }

    public boolean contains(int id) {
        return ids.contains(id);
    }

    public boolean containsAll(CoreSet other) {
        return ids.containsAll(other.ids);
    }

    public CoreSet union(CoreSet other) {
        List<Integer> all = new ArrayList<>(ids);
        all.addAll(other.ids);
        return new CoreSet(all);
    }

    public CoreSet minus(CoreSet other) {
        return new CoreSet(ids.stream().filter(id -> !other.ids.contains(id)).toList());
    }

    public CoreSet intersect(CoreSet other) {
        return new CoreSet(ids.stream().filter(other.ids::contains).toList());
    }

    /** The kernel's list format, {@code 0-3,8}; empty for no cores. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < ids.size()) {
            int start = ids.get(i);
            int end = start;
            while (i + 1 < ids.size() && ids.get(i + 1) == end + 1) {
                end = ids.get(++i);
            }
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start == end ? Integer.toString(start) : start + "-" + end);
            i++;
        }
        return out.toString();
    }
}
