package dev.berth.alloc.gc;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.berth.host.LibC;

/**
 * {@link DiskUsage} of the filesystem that holds {@code dir}: {@code statvfs(3)} ({@link LibC.Direct}: the JDK's
 * {@link FileStore} has no inode counts), falling back to the {@link FileStore} for space (inodes then read 0) where that
 * is unavailable (not 64-bit Linux).
 */
public final class StatvfsDiskUsage implements DiskUsage {

    private final Path dir;

    public StatvfsDiskUsage(Path dir) {
        this.dir = dir;
    }

    @Override
    public Usage read() throws IOException {
        Files.createDirectories(dir);
        long[] b = new long[LibC.Direct.STATVFS_LONGS];
        if (LibC.Direct.AVAILABLE && LibC.Direct.statfs(LibC.Direct.cString(dir.toString()), b)) {
            long frsize = b[LibC.Direct.F_FRSIZE] == 0 ? b[LibC.Direct.F_BSIZE] : b[LibC.Direct.F_FRSIZE];
            long used = (b[LibC.Direct.F_BLOCKS] - b[LibC.Direct.F_BFREE]) * frsize;
            long avail = b[LibC.Direct.F_BAVAIL] * frsize;
            long files = b[LibC.Direct.F_FILES];
            return new Usage(percent(used, used + avail), percent(files - b[LibC.Direct.F_FFREE], files));
        }
        FileStore store = Files.getFileStore(dir);
        long used = store.getTotalSpace() - store.getUnallocatedSpace();
        return new Usage(percent(used, used + store.getUsableSpace()), 0);
    }

    private static double percent(long part, long whole) {
        return whole <= 0 ? 0 : 100.0 * part / whole;
    }
}
