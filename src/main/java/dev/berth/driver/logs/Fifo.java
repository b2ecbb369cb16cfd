package dev.berth.driver.logs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import com.sun.jna.Native;

import dev.berth.host.LibC;

/** Named pipes (FIFOs), made with libc's {@code mkfifo(3)} ({@link LibC}): no process is forked to make one. */
public final class Fifo {

    private Fifo() {
    }

    /** Creates a FIFO at {@code path} (mode 0600) unless one is already there. */
    public static Path create(Path path) throws IOException {
        if (isFifo(path)) {
            return path;
        }
        Files.createDirectories(path.getParent());
        if (LibC.get().mkfifo(path.toString(), 0600) != 0) {
            throw new IOException("mkfifo " + path + " failed, errno " + Native.getLastError());
        }
        return path;
    }

    public static boolean isFifo(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS).isOther();
        } catch (IOException ex) {
            return false;
        }
    }
}
