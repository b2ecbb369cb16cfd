package dev.berth.host;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.config.HeapTrimmer;

/**
 * Gives the C heap's free pages back to the OS at the heap trimmer's quiet look ({@code malloc_trim(0)}), as the JVM
 * does by itself every 30 s ({@code -XX:TrimNativeHeapInterval} in {@code bin/jvm.options}). The start-up leaves freed
 * C heap (compiler arenas, class loading) that otherwise stays in the agent's RSS until the JVM's next periodic trim;
 * the first quiet look comes sooner. glibc only: elsewhere (musl has no {@code malloc_trim}) this does nothing.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class NativeHeapTrim implements HeapTrimmer.QuietRelease {

    private static final Logger log = LoggerFactory.getLogger(NativeHeapTrim.class);

    // 64-bit Linux on x86-64 or AArch64, as LinuxEpoll checks; a C library without malloc_trim (musl) shows at the first call
    private volatile boolean available = LinuxEpoll.AVAILABLE;

    @Override
    public void release() {
        if (!available) {
            return;
        }
        try {
            LibC.get().malloc_trim(0);
        } catch (LinkageError e) {
            available = false; // not glibc
            log.debug("no malloc_trim in this C library", e);
        }
    }

    /** Whether the C library trims (glibc on 64-bit Linux). */
    boolean available() {
        return available;
    }
}
