package dev.berth.template;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.alloc.task.TaskHooks.TaskShutdownHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.config.Sleeper;
import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.service.ServiceRegistry;
import dev.berth.template.gotmpl.TemplateException;
import dev.berth.variables.VariableException;
import dev.berth.variables.WorkloadIdentity;
import dev.berth.variables.WorkloadVariables;

/**
 * Nomad's {@code template} task hook. Before every start the task's templates are rendered and written; the task
 * waits for the first complete render: while a variable a template reads does not exist, Nomad's {@code Template}
 * event {@code Missing: nomad.var.block(…)} is emitted and the hook waits for it. A template that fails to render fails
 * the task ({@code Killing}, "Template failed: …", not retried). The {@code env = true} templates' {@code KEY=value}
 * lines join the task's environment. From the first render until the task's run is over a {@link TemplateWatcher}
 * re-renders on changes of the variables and services the templates read, and applies their change modes.
 */
public class TemplateHook implements TaskPrestartHook, TaskStopHook, TaskShutdownHook {

    private static final Duration POLL = Duration.ofMinutes(5);

    private final WorkloadVariables variables;
    private final ServiceRegistry services;
    private final ChangeFeed feed;
    private final Function<TaskHookContext, Interpolator> environment;
    private final ChangeModes modes;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Map<String, TemplateWatcher> watchers = new ConcurrentHashMap<>();

    /**
     * @param environment the task's environment (the runner's base environment)
     * @param runners     finds a task's runner by {@code <alloc id>/<task name>}
     */
    public TemplateHook(WorkloadVariables variables, ServiceRegistry services, ChangeFeed feed,
                        Function<TaskHookContext, Interpolator> environment,
                        Function<String, java.util.Optional<dev.berth.alloc.task.TaskRunner>> runners, Clock clock, Sleeper sleeper) {
        this.variables = variables;
        this.services = services;
        this.feed = feed;
        this.environment = environment;
        this.modes = new ChangeModes(runners, clock, sleeper);
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public String name() {
        return "template";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws HookFailedException, InterruptedException {
        List<TemplateSpec> specs = context.task().templatesOrEmpty();
        if (specs.isEmpty()) {
            return new PrestartResult(Map.of(), true);
        }
        WorkloadIdentity who = identity(context);
        Sandbox sandbox = new Sandbox(context.taskDir(), context.allocDir());
        Renderer renderer = new Renderer(new NomadFunctions(variables, services, who), sandbox, environment.apply(context).env());
        TaskTemplates templates = new TaskTemplates(specs, renderer, sandbox);
        List<String> reported = List.of();
        while (true) {
            long index = feed.currentIndex();
            TaskTemplates.Outcome outcome = render(templates);
            if (outcome.complete()) {
                watch(context, who, templates, specs, outcome.dependencies(), index);
                return new PrestartResult(outcome.env(), false);
            }
            List<String> missing = outcome.dependencies().missing();
            if (!missing.equals(reported)) {
                context.events().accept(TemplateEvents.missing(clock.instant(), missing));
                reported = missing;
            }
            awaitChange(index, variables.changes(who));
        }
    }

    @Override
    public void stop(TaskHookContext context) {
        TemplateWatcher w = watchers.remove(key(context));
        if (w != null) {
            w.close();
        }
    }

    @Override
    public void shutdown(TaskHookContext context) {
        stop(context);
    }

    private TaskTemplates.Outcome render(TaskTemplates templates) throws HookFailedException {
        try {
            return templates.renderAll();
        } catch (TemplateException | IOException | VariableException e) {
            String error = describe(e);
            throw new HookFailedException("Template failed: " + error, TemplateEvents.failed(clock.instant(), error), false);
        }
    }

    private void watch(TaskHookContext context, WorkloadIdentity who, TaskTemplates templates, List<TemplateSpec> specs,
                       Dependencies deps, long index) {
        if (!deps.readsVariables() && !deps.readsServices()) {
            return;
        }
        Predicate<Change> filter = deps.readsVariables() ? variables.changes(who) : c -> false;
        if (deps.readsServices()) {
            filter = filter.or(ServiceRegistry.watch());
        }
        Predicate<Change> watched = filter;
        TemplateWatcher existing = watchers.computeIfAbsent(key(context), k -> {
            TemplateWatcher w = new TemplateWatcher(k, feed, watched, index, templates, specs, context.events(), modes, clock, sleeper);
            w.start();
            return w;
        });
        existing.rendered(index);
    }

    private void awaitChange(long index, Predicate<Change> filter) throws InterruptedException {
        CompletableFuture<Long> change = feed.awaitChange(index, filter, POLL);
        try {
            change.get();
        } catch (ExecutionException e) {
            // a failed wait is retried by the render loop
        } finally {
            change.cancel(false);
        }
    }

    private static WorkloadIdentity identity(TaskHookContext context) {
        AllocationSpec alloc = context.alloc();
        String namespace = alloc.namespace() == null || alloc.namespace().isEmpty() ? "default" : alloc.namespace();
        String parent = alloc.job() == null ? null : alloc.job().parentId();
        return WorkloadIdentity.of(namespace, alloc.jobId(), parent, context.group().name(), context.task().name());
    }

    static String key(TaskHookContext context) {
        return context.alloc().id() + "/" + context.task().name();
    }

    /** The error text of a failed render: the template's own message, or the I/O or variable error. */
    static String describe(Exception e) {
        if (e instanceof TemplateException || e instanceof VariableException) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
