// The JVM's price of one positional read of a kernel file, two ways, against perf/read-path/pread-loop.c (C pread in
// a loop): a FileChannel read into a direct buffer (then copied into a byte[]), as KernelFile did on Java 21, and the
// critical foreign-function pread straight into the byte[] that NativePread binds on Java 22+. Thread CPU time per read.
// Run: perf/read-path.sh [FILE] [READS]
import java.lang.invoke.*;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.lang.foreign.*;

public class ReadBench {
    static final MethodHandle PREAD;
    static final MethodHandle OPEN;
    static {
        try {
            Linker l = Linker.nativeLinker();
            MethodHandle mh = l.downcallHandle(l.defaultLookup().find("pread").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.critical(true));
            MethodHandle ofArray = MethodHandles.lookup().findStatic(MemorySegment.class, "ofArray", MethodType.methodType(MemorySegment.class, byte[].class));
            PREAD = MethodHandles.filterArguments(mh, 1, ofArray);
            OPEN = l.downcallHandle(l.defaultLookup().find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        } catch (Throwable t) { throw new ExceptionInInitializerError(t); }
    }
    public static void main(String[] a) throws Throwable {
        String path = a[0]; int n = Integer.parseInt(a[1]);
        var bean = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        FileChannel ch = FileChannel.open(Path.of(path));
        ByteBuffer direct = ByteBuffer.allocateDirect(4096);
        byte[] buf = new byte[4096];
        int fd;
        try (Arena arena = Arena.ofConfined()) { fd = (int) OPEN.invokeExact(arena.allocateFrom(path), 0); }
        for (int round = 0; round < 4; round++) {
            long t0 = bean.getCurrentThreadCpuTime(); long sum = 0;
            for (int i = 0; i < n; i++) { direct.clear(); sum += ch.read(direct, 0); direct.flip().get(buf, 0, direct.remaining()); }
            long t1 = bean.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) { sum += (long) PREAD.invokeExact(fd, buf, 4096L, 0L); }
            long t2 = bean.getCurrentThreadCpuTime();
            System.out.printf("round %d: nio %.0f ns, ffm %.0f ns (%d)%n", round, (t1 - t0) / (double) n, (t2 - t1) / (double) n, sum);
        }
    }
}
