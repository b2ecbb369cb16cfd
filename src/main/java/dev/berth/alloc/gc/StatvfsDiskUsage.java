package dev.berth.alloc.gc;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * {@link DiskUsage} of the filesystem that holds {@code dir}: {@code statvfs(3)} through JNA (the JDK's {@link FileStore}
 * has no inode counts), falling back to the {@link FileStore} for space (inodes then read 0) when libc is unavailable.
 */
public final class StatvfsDiskUsage implements DiskUsage {

    private interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        /** {@code struct statvfs} on 64-bit Linux: eleven 8-byte fields then six ints, read as longs. */
        int statvfs(String path, long[] buf);
    }

    private final Path dir;

    public StatvfsDiskUsage(Path dir) {
        this.dir = dir;
    }

    @Override
    public Usage read() throws IOException {
        Files.createDirectories(dir);
        try {
            long[] b = new long[16];
            if (LibC.INSTANCE.statvfs(dir.toString(), b) == 0) {
                long frsize = b[1] == 0 ? b[0] : b[1];
                long blocks = b[2];
                long bfree = b[3];
                long bavail = b[4];
                long files = b[5];
                long ffree = b[6];
                long used = (blocks - bfree) * frsize;
                long avail = bavail * frsize;
                return new Usage(percent(used, used + avail), percent(files - ffree, files));
            }
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            // fall through to the portable space-only reading
        }
        FileStore store = Files.getFileStore(dir);
        long used = store.getTotalSpace() - store.getUnallocatedSpace();
        return new Usage(percent(used, used + store.getUsableSpace()), 0);
    }

    private static double percent(long part, long whole) {
        return whole <= 0 ? 0 : 100.0 * part / whole;
    }
}
