package dev.berth.driver.rawexec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;

import dev.berth.host.LibC;
import dev.berth.host.LinuxEpoll;
import dev.berth.host.ProcStat;

/**
 * Starts launch shims with {@code posix_spawn(3)} and learns of their exits through pidfds on one epoll thread.
 *
 * <p>Why not {@link ProcessBuilder}: the JDK parks one platform "process reaper" thread in {@code waitpid} per live
 * child, which at 2,000 tasks is 2,000 threads (stacks, and roots every GC pause must scan). Here the JDK never learns
 * of the child: {@code pidfd_open(2)} gives a descriptor that turns readable when the child exits, one thread
 * ({@code berth-raw-exec-exits}) waits on all of them, and {@code waitpid(pid, WNOHANG)} then collects the exact status
 * (the agent is the parent, so signal deaths are reported as such, as with {@code Process.exitValue()}).
 *
 * <p>The child gets what {@code ProcessBuilder} gave it: stdin from {@code /dev/null}, stdout/stderr appended to a file
 * or {@code /dev/null}, the working directory, exactly the given environment, an empty signal mask, every signal at its
 * default disposition, and no descriptor of the agent's beyond 0–2 ({@code posix_spawn_file_actions_addclosefrom_np}:
 * the JVM opens many files without close-on-exec). The epoll calls are {@link LinuxEpoll}'s, shared with the log pump.
 * Needs glibc ≥ 2.34 and Linux ≥ 5.3 on x86-64/AArch64; {@link #createOrNull()} gives null otherwise and the driver
 * keeps using {@link ProcessBuilder}.
 */
final class SpawnedChildren implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SpawnedChildren.class);

    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_CREAT = 0x40;
    private static final int O_APPEND = 0x400;
    private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    private static final int EINTR = 4;
    private static final int ECHILD = 10;
    private static final int WNOHANG = 1;
    private static final long SYS_PIDFD_OPEN = 434; // the same number on x86-64 and AArch64
    private static final long WAKE_TOKEN = 0;

    /**
     * A process being watched: its pidfd and what to call with its wait status; {@code reap} false for a process this
     * JVM did not start (nothing to wait for: the status goes to its own parent), which is called with -1.
     */
    private record Child(int pid, int pidfd, boolean reap, IntConsumer onExit) {
    }

    private final LibC libc;
    private final int epfd;
    private final int wakefd;
    private final Map<Long, Child> children = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong(WAKE_TOKEN);
    private final Thread thread;
    /** epoll_ctl scratch, used only under this object's lock. */
    private final Memory ctl = new Memory(16);
    private volatile boolean closed;

    private SpawnedChildren(LibC libc, int epfd, int wakefd) {
        this.libc = libc;
        this.epfd = epfd;
        this.wakefd = wakefd;
        this.thread = Thread.ofPlatform().name("berth-raw-exec-exits").daemon(true).stackSize(256 * 1024).unstarted(this::run);
    }

    /** The spawner, or null when this host cannot spawn this way (then use {@link ProcessBuilder}). */
    static SpawnedChildren createOrNull() {
        if (!LinuxEpoll.AVAILABLE) {
            return null;
        }
        try {
            LibC libc = LibC.get();
            // resolve the newest symbols now: a libc without them (glibc < 2.34, musl) must fall back, not fail a task
            com.sun.jna.NativeLibrary.getInstance("c").getFunction("posix_spawn_file_actions_addclosefrom_np");
            com.sun.jna.NativeLibrary.getInstance("c").getFunction("posix_spawn_file_actions_addchdir_np");
            long probe = libc.syscall(SYS_PIDFD_OPEN, ProcessHandle.current().pid(), 0);
            if (probe < 0) {
                return null; // kernel before 5.3
            }
            libc.close((int) probe);
            int epfd = LinuxEpoll.epollCreate();
            int wakefd = LinuxEpoll.eventFd();
            SpawnedChildren spawner = new SpawnedChildren(libc, epfd, wakefd);
            if (spawner.watch(wakefd, WAKE_TOKEN) != 0) {
                return null;
            }
            spawner.thread.start();
            return spawner;
        } catch (UnsatisfiedLinkError | java.io.IOException | RuntimeException e) {
            log.debug("posix_spawn/pidfd not usable here; raw_exec uses ProcessBuilder: {}", e.toString());
            return null;
        }
    }

    /**
     * Starts {@code command} and watches it.
     *
     * @param stdout a file to append stdout to, or null for {@code /dev/null}
     * @param stderr the same for stderr
     * @param onExit called once, on a thread of the caller's choosing inside it, with the {@code waitpid} status
     *               decoded as {@link Process#exitValue()} does (the exit code, or 128 + the signal)
     * @return the child's pid
     */
    int spawn(List<String> command, Map<String, String> env, Path workDir, Path stdout, Path stderr, IntConsumer onExit)
            throws java.io.IOException {
        if (closed) {
            throw new java.io.IOException("the raw_exec spawner is closed");
        }
        Memory actions = new Memory(256); // posix_spawn_file_actions_t is 80 bytes on glibc
        Memory attr = new Memory(512); // posix_spawnattr_t is 336 bytes on glibc
        Memory mask = new Memory(128); // sigset_t
        check(libc.posix_spawn_file_actions_init(actions), "posix_spawn_file_actions_init");
        try {
            check(libc.posix_spawnattr_init(attr), "posix_spawnattr_init");
            try {
                check(libc.posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0), "stdin");
                check(libc.posix_spawn_file_actions_addopen(actions, 1, target(stdout), O_WRONLY | O_APPEND | O_CREAT, 0644),
                        "stdout");
                check(libc.posix_spawn_file_actions_addopen(actions, 2, target(stderr), O_WRONLY | O_APPEND | O_CREAT, 0644),
                        "stderr");
                if (workDir != null) {
                    check(libc.posix_spawn_file_actions_addchdir_np(actions, workDir.toString()), "chdir");
                }
                check(libc.posix_spawn_file_actions_addclosefrom_np(actions, 3), "closefrom");
                libc.sigemptyset(mask);
                check(libc.posix_spawnattr_setsigmask(attr, mask), "setsigmask");
                // Every signal at its default from the first instruction: a stop signal sent before the shim has set its
                // traps ends the launch chain (reported as that signal) instead of being ignored because the agent's
                // process happened to ignore it (a JVM started in the background ignores SIGINT).
                Memory all = new Memory(128);
                libc.sigfillset(all);
                check(libc.posix_spawnattr_setsigdefault(attr, all), "setsigdefault");
                check(libc.posix_spawnattr_setflags(attr, (short) (POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)), "setflags");
                String[] envp = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
                IntByReference pid = new IntByReference();
                int err = libc.posix_spawn(pid, command.getFirst(), actions, attr, new StringArray(command.toArray(String[]::new)),
                        new StringArray(envp));
                if (err != 0) {
                    throw new java.io.IOException("Cannot run program \"" + command.getFirst() + "\": error=" + err + ", "
                            + describe(err));
                }
                register(pid.getValue(), onExit);
                return pid.getValue();
            } finally {
                libc.posix_spawnattr_destroy(attr);
            }
        } finally {
            libc.posix_spawn_file_actions_destroy(actions);
        }
    }

    private void register(int pid, IntConsumer onExit) {
        long pidfd = libc.syscall(SYS_PIDFD_OPEN, pid, 0);
        if (pidfd < 0) {
            // cannot happen for our own unreaped child; collect it the slow way rather than lose its exit
            log.warn("pidfd_open({}) failed (errno {}); waiting for it on a thread", pid, Native.getLastError());
            Thread.ofVirtual().name("raw-exec-wait-" + pid).start(() -> onExit.accept(blockingWait(pid)));
            return;
        }
        long token = tokens.incrementAndGet();
        children.put(token, new Child(pid, (int) pidfd, true, onExit));
        if (watch((int) pidfd, token) != 0) {
            children.remove(token);
            libc.close((int) pidfd);
            Thread.ofVirtual().name("raw-exec-wait-" + pid).start(() -> onExit.accept(blockingWait(pid)));
        }
    }

    /**
     * Watches a process this JVM did not start (a task recovered after an agent restart) for its exit through a pidfd in
     * the same epoll set, instead of reading its {@code /proc/<pid>/stat} every quarter second. {@code onGone} runs once,
     * on the watch thread, when the process has exited.
     *
     * @return false when it cannot be watched this way (closed, the process is gone, or the pid now names another
     *         process than the one started at {@code startTicks}): the caller checks it the ordinary way
     */
    boolean watchExit(int pid, long startTicks, Runnable onGone) {
        if (closed) {
            return false;
        }
        long pidfd = libc.syscall(SYS_PIDFD_OPEN, pid, 0);
        if (pidfd < 0) {
            return false;
        }
        // the pidfd names whichever process had this pid when it was opened: ours only if it still has our start time
        if (!ProcStat.isRunning(pid, startTicks)) {
            libc.close((int) pidfd);
            return false;
        }
        long token = tokens.incrementAndGet();
        children.put(token, new Child(pid, (int) pidfd, false, status -> onGone.run()));
        if (watch((int) pidfd, token) != 0) {
            children.remove(token);
            libc.close((int) pidfd);
            return false;
        }
        return true;
    }

    private synchronized int watch(int fd, long token) {
        return LinuxEpoll.ctl(epfd, LinuxEpoll.EPOLL_CTL_ADD, fd, LinuxEpoll.EPOLLIN, token, ctl);
    }

    private void run() {
        Memory events = new Memory((long) LinuxEpoll.EVENT_SIZE * 64);
        while (!closed) {
            int n = LinuxEpoll.libc().epoll_wait(epfd, events, 64, -1);
            if (n < 0) {
                if (Native.getLastError() == EINTR) {
                    continue;
                }
                log.error("epoll_wait for raw_exec exits failed (errno {}); exits are no longer seen", Native.getLastError());
                return;
            }
            for (int i = 0; i < n; i++) {
                long token = LinuxEpoll.dataAt(events, i);
                if (token != WAKE_TOKEN) {
                    reap(token);
                }
            }
        }
    }

    /** The pidfd turned readable: the child has exited. Collect its status; a 0 from waitpid leaves it watched. */
    private void reap(long token) {
        Child child = children.get(token);
        if (child == null) {
            return;
        }
        if (!child.reap()) {
            children.remove(token);
            libc.close(child.pidfd());
            callBack(child, -1);
            return;
        }
        IntByReference status = new IntByReference();
        int r = libc.waitpid(child.pid(), status, WNOHANG);
        if (r == 0) {
            return; // not yet a zombie (cannot normally happen once the pidfd is readable); the event fires again
        }
        int exitValue;
        if (r == child.pid()) {
            exitValue = decode(status.getValue());
        } else {
            int errno = Native.getLastError();
            log.warn("waitpid({}) failed (errno {}): exit status unknown", child.pid(), errno);
            exitValue = errno == ECHILD ? -1 : 128 + 9;
        }
        children.remove(token);
        libc.close(child.pidfd()); // closing the last reference also drops it from the epoll set
        callBack(child, exitValue);
    }

    private static void callBack(Child child, int exitValue) {
        try {
            child.onExit().accept(exitValue);
        } catch (RuntimeException e) {
            log.warn("raw_exec exit callback failed for pid {}", child.pid(), e);
        }
    }

    private int blockingWait(int pid) {
        IntByReference status = new IntByReference();
        while (true) {
            int r = libc.waitpid(pid, status, 0);
            if (r == pid) {
                return decode(status.getValue());
            }
            if (r < 0 && Native.getLastError() != EINTR) {
                return -1;
            }
        }
    }

    /** As the JDK's {@code Process.exitValue()}: the exit code, or 0x80 + the signal that killed it. */
    static int decode(int status) {
        int signal = status & 0x7f;
        return signal == 0 ? (status >> 8) & 0xff : 0x80 + signal;
    }

    /** Children still watched (for tests and close). */
    int watched() {
        return children.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Memory one = new Memory(8);
        one.setLong(0, 1);
        LinuxEpoll.libc().write(wakefd, one, 8);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Tasks outlive the agent: their pidfds just go; the processes stay running and are recovered by the next agent.
        children.values().forEach(c -> libc.close(c.pidfd()));
        children.clear();
        libc.close(epfd);
        libc.close(wakefd);
    }

    private static String target(Path file) {
        return file == null ? "/dev/null" : file.toString();
    }

    private static void check(int rc, String what) throws java.io.IOException {
        if (rc != 0) {
            throw new java.io.IOException(what + " failed: error=" + rc + ", " + describe(rc));
        }
    }

    private static String describe(int errno) {
        return switch (errno) {
            case 2 -> "No such file or directory";
            case 13 -> "Permission denied";
            case 20 -> "Not a directory";
            case 8 -> "Exec format error";
            default -> "errno " + errno;
        };
    }
}
