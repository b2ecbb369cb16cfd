package dev.berth.alloc.fs;

import java.time.Instant;

/**
 * One entry of an allocation directory, as Nomad's {@code AllocFileInfo}.
 *
 * @param name        file name
 * @param dir         whether it is a directory
 * @param size        size in bytes
 * @param fileMode    Go's {@code FileMode.String()}, e.g. {@code -rw-r--r--} or {@code drwxrwxrwx}
 * @param modTime     last modification
 * @param contentType detected content type (only for stat), else null
 */
public record AllocFileInfo(String name, boolean dir, long size, String fileMode, Instant modTime, String contentType) {
}
