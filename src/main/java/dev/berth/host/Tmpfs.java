package dev.berth.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.sun.jna.LastErrorException;
import com.sun.jna.NativeLong;

/**
 * tmpfs mounts for a task's {@code secrets/} and {@code private/} directories through {@code mount(2)} and
 * {@code umount2(2)} ({@link LibC}), and the kernel's mount table ({@code /proc/self/mountinfo}), which makes mounting idempotent
 * (an agent restart must not stack a second tmpfs over the first) and tells what to unmount before a directory is removed.
 * Linux only. Stateless apart from remembering that the kernel refused {@code noswap} (Linux &lt; 6.4).
 */
public final class Tmpfs {

    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");
    private static final long MS_NOSUID = 2;
    private static final long MS_NODEV = 4;
    private static final int MNT_DETACH = 2;
    private static final int EINVAL = 22;
    private static final int EBUSY = 16;

    private static volatile boolean noswapRefused;

    private Tmpfs() {
    }

    /** Whether this process may mount: Linux and effective uid 0. */
    public static boolean canMount() {
        if (!String.valueOf(System.getProperty("os.name")).toLowerCase(java.util.Locale.ROOT).contains("linux") || !Files.isReadable(MOUNTINFO)) {
            return false;
        }
        try {
            return LibC.get().geteuid() == 0;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return false;
        }
    }

    /**
     * Mounts a tmpfs of {@code sizeBytes} on the existing directory {@code dir}: mode 0777, {@code nosuid,nodev}, and
     * {@code noswap} when the kernel accepts it (it is retried without on {@code EINVAL}). Does nothing when {@code dir} is
     * already a mount point.
     *
     * @return true when mounted now, false when it already was
     * @throws IOException when the kernel refuses the mount (the text carries the errno)
     */
    public static boolean mount(Path dir, long sizeBytes) throws IOException {
        Path target = dir.toRealPath();
        if (isMountPoint(target)) {
            return false;
        }
        String options = "size=" + sizeBytes + ",mode=0777";
        if (!noswapRefused) {
            try {
                doMount(target, options + ",noswap");
                return true;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINVAL) {
                    throw new IOException("mount tmpfs on " + target + " failed: errno " + e.getErrorCode(), e);
                }
                noswapRefused = true; // an older kernel: tmpfs without noswap
            }
        }
        try {
            doMount(target, options);
            return true;
        } catch (LastErrorException e) {
            throw new IOException("mount tmpfs on " + target + " failed: errno " + e.getErrorCode(), e);
        }
    }

    private static void doMount(Path target, String options) {
        LibC.get().mount("tmpfs", target.toString(), "tmpfs", new NativeLong(MS_NOSUID | MS_NODEV), options);
    }

    /**
     * Unmounts every mount at or under {@code root}, deepest first; a busy one (a process still has a file open there) is
     * detached lazily so the directory can still be removed. A missing {@code root} has nothing mounted.
     *
     * @return how many were unmounted
     * @throws IOException when one cannot be unmounted at all (the others are still tried)
     */
    public static int unmountUnder(Path root) throws IOException {
        if (!Files.exists(root) || !Files.isReadable(MOUNTINFO)) {
            return 0;
        }
        IOException failure = null;
        int count = 0;
        for (Path mount : mountsUnder(root)) {
            try {
                try {
                    LibC.get().umount2(mount.toString(), 0);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() != EBUSY) {
                        throw e;
                    }
                    LibC.get().umount2(mount.toString(), MNT_DETACH);
                }
                count++;
            } catch (LastErrorException e) {
                IOException ex = new IOException("umount " + mount + " failed: errno " + e.getErrorCode(), e);
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return count;
    }

    /** Whether {@code dir} is a mount point (its real path is a mount point in this process' mount table). */
    public static boolean isMountPoint(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return false;
        }
        Path real = dir.toRealPath();
        return mountPoints().contains(real);
    }

    /** Mount points at or under {@code root} (real path), deepest first. */
    public static List<Path> mountsUnder(Path root) throws IOException {
        Path real = root.toRealPath();
        List<Path> under = new ArrayList<>();
        for (Path p : mountPoints()) {
            if (p.startsWith(real)) {
                under.add(p);
            }
        }
        under.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        return under;
    }

    /** Every mount point of this process (field 5 of {@code /proc/self/mountinfo}, octal escapes decoded). */
    static List<Path> mountPoints() throws IOException {
        List<Path> points = new ArrayList<>();
        for (String line : Files.readAllLines(MOUNTINFO)) {
            String[] f = line.split(" ");
            if (f.length > 4) {
                points.add(Path.of(unescape(f[4])));
            }
        }
        return points;
    }

    /** mountinfo writes space, tab, newline and backslash as {@code \ooo}. */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && isOctal(s, i + 1)) {
                sb.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean isOctal(String s, int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }
}
