package dev.berth.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code /proc/<pid>/stat}. The start time (field 22, clock ticks since boot) together with the pid
 * identifies a process for good: a recycled pid has a different start time.
 *
 * @param pid        the process id
 * @param state      the one-letter state (field 3): {@code R}, {@code S}, {@code Z} (zombie), …
 * @param pgrp       the process group id (field 5)
 * @param session    the session id (field 6)
 * @param startTicks the start time (field 22)
 */
public record ProcStat(int pid, char state, int pgrp, int session, long startTicks) {

    private static final Path PROC = Path.of("/proc");

    /** The process's stat line, or empty when the process does not exist (any more). */
    public static Optional<ProcStat> read(long pid) {
        return read(PROC, pid);
    }

    /** As {@link #read(long)} against another proc root (fixtures in tests). */
    public static Optional<ProcStat> read(Path procRoot, long pid) {
        String line;
        try {
            line = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        } catch (IOException ex) {
            // ESRCH while reading: the process went away between open and read.
            return Optional.empty();
        }
        return Optional.of(parse(line));
    }

    /**
     * Parses a stat line. The command (field 2) may contain spaces and parentheses, so fields are counted after the
     * last ')'. Scans the fields in place (no regex, no array of strings): a restored task's exit is watched by reading
     * this line four times a second.
     */
    public static ProcStat parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + line);
        }
        int pid = Integer.parseInt(line.substring(0, open).trim());
        char state = 0;
        int pgrp = 0;
        int session = 0;
        long startTicks = 0;
        int pos = close + 1;
        for (int field = 3; field <= 22; field++) { // field numbers as in proc(5)
            while (pos < line.length() && Character.isWhitespace(line.charAt(pos))) {
                pos++;
            }
            int end = pos;
            while (end < line.length() && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            if (end == pos) {
                throw new IllegalArgumentException("no field " + field + " in /proc/<pid>/stat line: " + line);
            }
            switch (field) {
                case 3 -> state = line.charAt(pos);
                case 5 -> pgrp = Integer.parseInt(line, pos, end, 10);
                case 6 -> session = Integer.parseInt(line, pos, end, 10);
                case 22 -> startTicks = Long.parseLong(line, pos, end, 10);
                default -> {
                }
            }
            pos = end;
        }
        return new ProcStat(pid, state, pgrp, session, startTicks);
    }

    /** True unless the process is a zombie (exited, not yet reaped) or dead. */
    public boolean running() {
        return state != 'Z' && state != 'X' && state != 'x';
    }

    /** Whether {@code pid} is a running (non-zombie) process that started at {@code startTicks}. */
    public static boolean isRunning(long pid, long startTicks) {
        return read(pid).filter(s -> s.startTicks() == startTicks && s.running()).isPresent();
    }

    /** The direct children of a process ({@code /proc/<pid>/task/<pid>/children}); empty if unknown. */
    public static List<Long> children(long pid) {
        List<Long> out = new ArrayList<>();
        try {
            String text = Files.readString(PROC.resolve(pid + "/task/" + pid + "/children")).trim();
            if (!text.isEmpty()) {
                for (String s : text.split("\\s+")) {
                    out.add(Long.parseLong(s));
                }
            }
        } catch (IOException | NumberFormatException ex) {
            return List.of();
        }
        return out;
    }
}
