package dev.berth.stats;

/**
 * A task's memory event counters as its cgroup keeps them. cgroup v2 {@code memory.events}: {@code low} (reclaimed
 * below {@code memory.low}), {@code high} (charged above {@code memory.high}: reclaimed and throttled), {@code max}
 * (a charge hit {@code memory.max}), {@code oom} (the limit was reached and reclaim failed), {@code oom_kill} (a
 * process was killed). cgroup v1: {@code memory.failcnt} (charges that hit the memory limit),
 * {@code memory.memsw.failcnt} (the memory+swap limit, with swap accounting), and {@code memory.oom_control}'s
 * {@code oom_kill} (kernel 4.13+) and {@code under_oom} (the cgroup is out of memory right now, a state, not a count).
 * Every counter is cumulative since the cgroup was made; one the kernel does not keep is not {@link #has measured}.
 *
 * @param measured bits of the {@link Event} ordinals read
 */
public record TaskMemoryEvents(long low, long high, long max, long oom, long oomKill, long failcnt, long memswFailcnt,
        boolean underOom, int measured) {

    /** Nothing measured (no memory controller, or files that cannot be read). */
    public static final TaskMemoryEvents NONE = new TaskMemoryEvents(0, 0, 0, 0, 0, 0, 0, false, 0);

    /**
     * One counter (or, for {@link #UNDER_OOM}, the state): its Prometheus {@code event} label and its JSON name.
     */
    public enum Event {
        LOW("low", "Low"),
        HIGH("high", "High"),
        MAX("max", "Max"),
        OOM("oom", "Oom"),
        OOM_KILL("oom_kill", "OomKill"),
        FAILCNT("failcnt", "Failcnt"),
        MEMSW_FAILCNT("memsw_failcnt", "MemswFailcnt"),
        UNDER_OOM("under_oom", "UnderOom");

        private final String label;
        private final String json;

        Event(String label, String json) {
            this.label = label;
            this.json = json;
        }

        /** The {@code event} label value of {@code berth_task_memory_events_total}. */
        public String label() {
            return label;
        }

        public String json() {
            return json;
        }

        int bit() {
            return 1 << ordinal();
        }
    }

    public boolean has(Event event) {
        return (measured & event.bit()) != 0;
    }

    public boolean isEmpty() {
        return measured == 0;
    }

    /** A counter's value (for {@link Event#UNDER_OOM}: 1 while under OOM, else 0); 0 when not measured. */
    public long count(Event event) {
        return switch (event) {
            case LOW -> low;
            case HIGH -> high;
            case MAX -> max;
            case OOM -> oom;
            case OOM_KILL -> oomKill;
            case FAILCNT -> failcnt;
            case MEMSW_FAILCNT -> memswFailcnt;
            case UNDER_OOM -> underOom ? 1 : 0;
        };
    }
}
