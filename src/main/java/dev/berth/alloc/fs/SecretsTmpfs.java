package dev.berth.alloc.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.Tmpfs;
import dev.berth.alloc.spec.TaskSpec;

/**
 * Puts a task's {@code secrets/} (size {@code Resources.SecretsMB}, default 1 MiB) and {@code private/} (1 MiB) on tmpfs,
 * as Nomad does, so secrets never reach the disk (and, with {@code noswap}, not the swap either). Best effort: when
 * turned off ({@code berth.alloc.secrets-tmpfs=false}), not root, not Linux, or the kernel refuses, the directories stay
 * plain ones and the reason is logged once; a task never fails for it. Idempotent (an existing mount is kept). The mounts
 * go away with the alloc dir: {@link AllocDir#destroy()} unmounts everything under it first.
 */
public class SecretsTmpfs {

    private static final Logger log = LoggerFactory.getLogger(SecretsTmpfs.class);
    static final long MIB = 1024 * 1024;

    private final boolean enabled;
    private final AtomicBoolean warned = new AtomicBoolean();

    public SecretsTmpfs(boolean enabled) {
        this.enabled = enabled;
    }

    /** Off: plain directories. */
    public static SecretsTmpfs disabled() {
        return new SecretsTmpfs(false);
    }

    /** Mounts the task's tmpfs directories (already created) unless turned off or impossible. Never throws. */
    public void mount(Path taskDir, TaskSpec task) {
        if (!enabled) {
            return;
        }
        if (!Tmpfs.canMount()) {
            warnOnce("not running as root on Linux", null);
            return;
        }
        try {
            Tmpfs.mount(taskDir.resolve("secrets"), secretsBytes(task));
            Tmpfs.mount(taskDir.resolve("private"), MIB);
        } catch (IOException | RuntimeException | LinkageError e) {
            warnOnce(e.getMessage(), e);
        }
    }

    /** {@code Resources.SecretsMB} in bytes; Nomad's default 1 MB when unset or 0. */
    static long secretsBytes(TaskSpec task) {
        Integer mb = task.resources() == null ? null : task.resources().secretsMb();
        return mb == null || mb <= 0 ? MIB : mb * MIB;
    }

    private void warnOnce(String why, Throwable e) {
        if (warned.compareAndSet(false, true)) {
            log.warn("task secrets/ and private/ stay plain directories (no tmpfs): {}", why, e);
        } else {
            log.debug("no tmpfs for secrets/private: {}", why, e);
        }
    }
}
