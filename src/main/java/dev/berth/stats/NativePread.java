package dev.berth.stats;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.LinuxEpoll;

/**
 * {@code pread(2)} of a kept-open kernel file straight into a Java {@code byte[]}, through the JDK's foreign function
 * interface as a <em>critical</em> call (Java 22+: no thread-state transition, the heap array passed in place). A
 * {@code FileChannel} positional read into a direct buffer costs markedly more per read of a small cgroup file than C's
 * {@code pread} (the channel's interruptible-I/O bookkeeping, its descriptor set, the copy out of the direct buffer),
 * and the agent makes several such reads per task per second; this path closes most of that gap (figures in
 * docs/benchmarks/stats.md).
 *
 * <p>Berth compiles for Java 21, where this API is a preview, so the call is bound by reflection when the agent runs on
 * 22 or later; elsewhere (or when binding fails) {@link #AVAILABLE} is false and {@link KernelFile} reads through its
 * {@code FileChannel}. Descriptors are opened and closed with libc (JNA, once per file), close-on-exec.
 */
final class NativePread {

    private static final Logger log = LoggerFactory.getLogger(NativePread.class);

    /** {@code (int fd, MemorySegment buf, long count, long fileOffset) -> long} with the segment typed Object; or null. */
    private static final MethodHandle PREAD;
    /** {@code MemorySegment.ofArray(byte[])}, returning Object. */
    private static final MethodHandle OF_ARRAY;
    /** {@code segment.asSlice(long)}, Object to Object. */
    private static final MethodHandle SLICE;
    static final boolean AVAILABLE;

    static {
        MethodHandle[] handles = bind();
        PREAD = handles == null ? null : handles[0];
        OF_ARRAY = handles == null ? null : handles[1];
        SLICE = handles == null ? null : handles[2];
        AVAILABLE = PREAD != null && LinuxEpoll.AVAILABLE;
    }

    private NativePread() {
    }

    /** Opens {@code path} read-only, close-on-exec; a negative value when it cannot be opened (gone, denied). */
    static int open(Path path) {
        return LinuxEpoll.libc().open(path.toString(), LinuxEpoll.O_RDONLY | LinuxEpoll.O_CLOEXEC);
    }

    static void close(int fd) {
        LinuxEpoll.libc().close(fd);
    }

    /** A memory segment over the whole array, kept by the caller while the array is in use (typed Object). */
    static Object segmentOf(byte[] array) {
        try {
            return (Object) OF_ARRAY.invokeExact(array);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * Reads up to {@code count} bytes at file offset {@code fileOffset} into {@code segment} (from {@link #segmentOf})
     * from {@code bufOffset}.
     *
     * @return the bytes read, 0 at the end, negative on an error (e.g. {@code ENODEV}: the cgroup was removed)
     */
    static long pread(int fd, Object segment, int bufOffset, int count, long fileOffset) {
        try {
            Object target = bufOffset == 0 ? segment : (Object) SLICE.invokeExact(segment, (long) bufOffset);
            return (long) PREAD.invokeExact(fd, target, (long) count, fileOffset);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException(e);
    }

    /** Binds the downcall and the segment handles, or returns null when the runtime has no final foreign function API. */
    private static MethodHandle[] bind() {
        if (Runtime.version().feature() < 22 || !LinuxEpoll.AVAILABLE) {
            return null;
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
            Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
            Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
            Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> valueLayouts = Class.forName("java.lang.foreign.ValueLayout");
            Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");

            Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
            Object symbols = linkerClass.getMethod("defaultLookup").invoke(linker);
            Object symbol = ((java.util.Optional<?>) lookupClass.getMethod("find", String.class).invoke(symbols, "pread"))
                    .orElseThrow();
            Object javaLong = valueLayouts.getField("JAVA_LONG").get(null);
            Object javaInt = valueLayouts.getField("JAVA_INT").get(null);
            Object address = valueLayouts.getField("ADDRESS").get(null);
            Object arguments = Array.newInstance(layoutClass, 4);
            Array.set(arguments, 0, javaInt);
            Array.set(arguments, 1, address);
            Array.set(arguments, 2, javaLong);
            Array.set(arguments, 3, javaLong);
            // ssize_t pread(int fd, void *buf, size_t count, off_t offset)
            Object descriptor = descriptorClass.getMethod("of", layoutClass, arguments.getClass())
                    .invoke(null, javaLong, arguments);
            Object options = Array.newInstance(optionClass, 1);
            Array.set(options, 0, optionClass.getMethod("critical", boolean.class).invoke(null, true));
            Method downcall = linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass, options.getClass());
            MethodHandle pread = (MethodHandle) downcall.invoke(linker, symbol, descriptor, options);

            MethodHandle ofArray = lookup.findStatic(segmentClass, "ofArray", MethodType.methodType(segmentClass, byte[].class));
            MethodHandle asSlice = lookup.findVirtual(segmentClass, "asSlice", MethodType.methodType(segmentClass, long.class));
            return new MethodHandle[] {
                pread.asType(MethodType.methodType(long.class, int.class, Object.class, long.class, long.class)),
                ofArray.asType(MethodType.methodType(Object.class, byte[].class)),
                asSlice.asType(MethodType.methodType(Object.class, Object.class, long.class))};
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.debug("No foreign-function pread on this runtime; kernel files are read through FileChannel", e);
            return null;
        }
    }
}
