package dev.berth.template;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.config.Sleeper;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;

/**
 * Applies the {@code change_mode} of the templates a re-render changed, as Nomad's template manager does: after a
 * random wait of up to the largest {@code splay}, one restart if any of them says {@code restart} (Nomad's
 * {@code Restart Signaled} "Template with change_mode restart re-rendered"); otherwise each distinct
 * {@code change_signal} once ({@code Signaling}, "Template re-rendered") and each {@code change_script} through the
 * driver's exec. A task that is not running (between restarts) is skipped: its next start renders anew.
 */
final class ChangeModes {

    private final Function<String, Optional<TaskRunner>> runners;
    private final Clock clock;
    private final Sleeper sleeper;

    /** @param runners finds the runner of a task by {@code <alloc id>/<task name>} */
    ChangeModes(Function<String, Optional<TaskRunner>> runners, Clock clock, Sleeper sleeper) {
        this.runners = runners;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    void apply(String taskKey, List<TemplateSpec> changed, CompletableFuture<?> cancel) throws InterruptedException {
        boolean restart = changed.stream().anyMatch(t -> TemplateSpec.RESTART.equals(t.changeMode()));
        Set<String> signals = new LinkedHashSet<>();
        List<TemplateSpec.ChangeScript> scripts = new ArrayList<>();
        Duration splay = Duration.ZERO;
        for (TemplateSpec t : changed) {
            if (TemplateSpec.SIGNAL.equals(t.changeMode())) {
                signals.add(t.changeSignal());
            } else if (TemplateSpec.SCRIPT.equals(t.changeMode()) && t.changeScript() != null) {
                scripts.add(t.changeScript());
            }
            if (!TemplateSpec.NOOP.equals(t.changeMode()) && t.splayDuration().compareTo(splay) > 0) {
                splay = t.splayDuration();
            }
        }
        if (!restart && signals.isEmpty() && scripts.isEmpty()) {
            return;
        }
        if (!splay.isZero() && !sleeper.sleep(Duration.ofNanos(ThreadLocalRandom.current().nextLong(splay.toNanos())), cancel)) {
            return;
        }
        TaskRunner task = runners.apply(taskKey).orElse(null);
        if (task == null) {
            return;
        }
        if (restart) {
            try {
                task.restart("Template with change_mode restart re-rendered", false);
            } catch (TaskRunner.TaskNotRunningException e) {
                // not running: its next start renders the new content
            }
            return;
        }
        signal(task, signals);
        for (TemplateSpec.ChangeScript script : scripts) {
            script(task, script);
        }
    }

    /** Kills the task (a re-render failed); a task that is gone is left. */
    void kill(String taskKey, String reason) throws InterruptedException {
        TaskRunner task = runners.apply(taskKey).orElse(null);
        if (task != null) {
            task.kill(reason);
        }
    }

    private void signal(TaskRunner task, Set<String> signals) throws InterruptedException {
        List<String> failed = new ArrayList<>();
        String error = null;
        for (String s : signals) {
            try {
                task.signal(s, "Template re-rendered");
            } catch (TaskRunner.TaskNotRunningException e) {
                task.emit(TemplateEvents.message(clock.instant(), "Template skipped signal " + s + ": task is not running"));
            } catch (DriverException e) {
                failed.add(s);
                error = e.getMessage();
            }
        }
        if (!failed.isEmpty()) {
            task.kill("Template failed to send signals " + failed + ": " + error);
        }
    }

    private void script(TaskRunner task, TemplateSpec.ChangeScript script) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(script.command());
        command.addAll(script.args());
        String what = script.command() + " with arguments " + script.args();
        int exit = -1;
        try {
            ExecSession session = task.exec(new ExecSession.Request(command, false, 0, 0));
            drain(session.stdout());
            drain(session.stderr());
            try {
                exit = session.exit().get(script.timeout(), TimeUnit.NANOSECONDS);
            } finally {
                session.kill();
            }
        } catch (TaskRunner.TaskNotRunningException | DriverException | TimeoutException
                 | java.util.concurrent.ExecutionException | RuntimeException e) {
            String why = e instanceof TimeoutException ? "context deadline exceeded" : String.valueOf(e.getMessage());
            scriptFailed(task, script, "Template failed to run script " + what + " on change: " + why + ". Exit code: " + exit);
            return;
        }
        if (exit != 0) {
            scriptFailed(task, script, "Template ran script " + what + " on change but it exited with code: " + exit);
            return;
        }
        task.emit(TemplateEvents.message(clock.instant(), "Template successfully ran script " + what + ". Exit code: 0"));
    }

    private void scriptFailed(TaskRunner task, TemplateSpec.ChangeScript script, String message) throws InterruptedException {
        task.emit(TemplateEvents.scriptFailed(clock.instant(), message));
        if (script.failOnError()) {
            task.kill("Template script failed, task is being killed");
        }
    }

    private static void drain(InputStream in) {
        Thread.ofVirtual().name("berth-template-script-output").start(() -> {
            try (in) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (java.io.IOException e) {
                // the session ended
            }
        });
    }
}
