package dev.berth.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.job.cron.CronSchedule;

/**
 * Launches the children of periodic jobs on this node, as Nomad's periodic dispatcher does: at each time the job's
 * {@code periodic} block names (cron expressions in its time zone), the job is copied to {@code <id>/periodic-<unix
 * seconds>} with {@code ParentID} set and {@code Periodic} removed, and registered as a job of its own. With
 * {@code prohibit_overlap} a launch is skipped while an earlier child is not dead. The last launch of every job is
 * persisted: after a restart the schedule resumes from it, a slot is never launched twice, and slots missed while the
 * agent was down give one launch now (Nomad's catch-up on leader election). Ticks come from a {@link KickLoop} (every
 * second while {@link #hasWork()}, none while no periodic job exists); tests call
 * {@link #tick()} with their own {@link Clock}.
 */
public class PeriodicLauncher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PeriodicLauncher.class);
    /** Nomad's {@code structs.PeriodicLaunchSuffix}. */
    public static final String SUFFIX = "/periodic-";

    /** Registers a derived child job (and evaluates it). */
    @FunctionalInterface
    public interface ChildRegistrar {
        JobService.Result register(ObjectNode child, String triggeredBy) throws JobException;
    }

    private final JobRegistry jobs;
    private final JobStore store;
    private final Clock clock;
    private final ChildRegistrar registrar;
    private final Map<String, Long> lastLaunch = new ConcurrentHashMap<>();
    private final KickLoop loop;

    public PeriodicLauncher(JobRegistry jobs, JobStore store, Clock clock, ChildRegistrar registrar) {
        this.jobs = jobs;
        this.store = store;
        this.clock = clock;
        this.registrar = registrar;
        for (JobStore.PeriodicLaunch l : store.periodicLaunches()) {
            lastLaunch.put(JobRegistry.key(l.namespace(), l.jobId()), l.launchMillis());
        }
        // ticks every second while a periodic job is active or a recorded launch may still be purged; else it sleeps
        // until a registration (every active periodic job was registered at some point: at start the loop asks anew)
        this.loop = new KickLoop("berth-periodic", Duration.ofSeconds(1), this::tick, this::hasWork);
        jobs.onRegistration(loop::recheckPeriodic);
    }

    /** Whether a tick can do anything: a periodic job to launch, or a recorded launch to drop once its job is purged. */
    boolean hasWork() {
        return !lastLaunch.isEmpty() || jobs.anyJob(PeriodicLauncher::active);
    }

    /** Nomad's {@code IsPeriodicActive}: periodic, enabled, not stopped, not a parameterized template. */
    public static boolean active(JsonNode job) {
        return job.hasNonNull("Periodic") && job.path("Periodic").path("Enabled").asBoolean(true) && !job.path("Stop").asBoolean()
                && !(job.hasNonNull("ParameterizedJob") && !job.path("Dispatched").asBoolean());
    }

    /** The job's schedule (validated at registration, so a failure here is logged and the job skipped). */
    public static CronSchedule schedule(JsonNode job) throws CronSchedule.InvalidScheduleException {
        JsonNode p = job.path("Periodic");
        List<String> specs = new ArrayList<>();
        if (!p.path("Spec").asString("").isEmpty()) {
            specs.add(p.path("Spec").asString());
        } else {
            p.path("Specs").forEach(s -> specs.add(s.asString()));
        }
        return CronSchedule.parse(specs, p.path("TimeZone").asString("UTC"));
    }

    /** Launches every child that is due at the clock's time. */
    public synchronized void tick() {
        Instant now = clock.instant();
        for (String key : List.copyOf(lastLaunch.keySet())) {
            String[] nsId = key.split("\u0000", 2);
            if (jobs.job(nsId[0], nsId[1]).isEmpty()) {
                // purged: a job registered again under this ID starts its schedule afresh (Nomad deletes the launch too)
                lastLaunch.remove(key);
                store.deletePeriodicLaunch(nsId[0], nsId[1]);
            }
        }
        for (ObjectNode job : jobs.jobs()) {
            if (!active(job)) {
                continue;
            }
            try {
                launchDue(job, now);
            } catch (CronSchedule.InvalidScheduleException | JobException | RuntimeException e) {
                log.warn("Periodic job {} not launched: {}", JobService.id(job), e.getMessage());
            }
        }
    }

    private void launchDue(ObjectNode job, Instant now) throws CronSchedule.InvalidScheduleException, JobException {
        String ns = JobService.ns(job);
        String id = JobService.id(job);
        String key = JobRegistry.key(ns, id);
        // no launch recorded yet: the schedule starts at the job's registration (Nomad records "now" at register)
        long since = lastLaunch.computeIfAbsent(key, k -> job.path("SubmitTime").asLong(now.toEpochMilli() * 1_000_000L) / 1_000_000L);
        CronSchedule schedule = schedule(job);
        Optional<ZonedDateTime> next = schedule.next(Instant.ofEpochMilli(since).atZone(schedule.zone()));
        if (next.isEmpty() || next.get().toInstant().isAfter(now)) {
            return;
        }
        Optional<ZonedDateTime> following = schedule.next(next.get());
        // one slot due: launch it at its time; several missed (the agent was down): one launch now, as Nomad does
        Instant launch = following.isPresent() && !following.get().toInstant().isAfter(now) ? now : next.get().toInstant();
        record(ns, id, launch);
        if (job.path("Periodic").path("ProhibitOverlap").asBoolean() && runningChild(ns, id)) {
            log.debug("Skipping launch of periodic job {}: prohibit_overlap and a child is running", id);
            return;
        }
        launch(job, launch, "periodic-job");
    }

    /** Nomad's {@code /v1/job/{id}/periodic/force}: a child now, whatever the schedule. */
    public JobService.Result force(String ns, String id) throws JobException {
        ObjectNode job = jobs.job(ns, id).orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "job not found"));
        if (!job.hasNonNull("Periodic")) {
            throw new JobException(JobException.Kind.INVALID, "can't force launch non-periodic job");
        }
        if (!active(job)) {
            throw new JobException(JobException.Kind.INVALID, "can't force run non-tracked job \"" + id + "\" (" + ns + ")");
        }
        Instant now = clock.instant();
        synchronized (this) {
            return launch(job, now, "periodic-job");
        }
    }

    private JobService.Result launch(ObjectNode job, Instant at, String triggeredBy) throws JobException {
        String childId = JobService.id(job) + SUFFIX + at.getEpochSecond();
        Optional<ObjectNode> existing = jobs.job(JobService.ns(job), childId);
        if (existing.isPresent()) {
            // launched before a restart: never a second child for the same slot
            ObjectNode e = existing.get();
            List<ObjectNode> evals = jobs.evals(JobService.ns(job), childId);
            String evalId = evals.isEmpty() ? "" : evals.getFirst().path("ID").asString();
            long evalIndex = evals.isEmpty() ? 0 : evals.getFirst().path("CreateIndex").asLong();
            return new JobService.Result(evalId, evalIndex, e.path("JobModifyIndex").asLong(), "", evalIndex);
        }
        ObjectNode child = derive(job, childId);
        log.info("Launching periodic job {}", childId);
        return registrar.register(child, triggeredBy);
    }

    /** Nomad's {@code deriveJob}: a copy with the child's ID and name, {@code ParentID}, no {@code Periodic}, no status. */
    static ObjectNode derive(ObjectNode parent, String childId) {
        ObjectNode child = JobRegistry.specOf(parent);
        child.put("ParentID", JobService.id(parent));
        child.put("ID", childId);
        child.put("Name", childId);
        child.putNull("Periodic");
        child.put("Status", "");
        child.put("StatusDescription", "");
        return child;
    }

    private boolean runningChild(String ns, String id) {
        return jobs.jobs().stream().anyMatch(c -> id.equals(c.path("ParentID").asString()) && ns.equals(JobService.ns(c))
                && JobService.id(c).startsWith(id + SUFFIX) && !"dead".equals(c.path("Status").asString()));
    }

    private void record(String ns, String id, Instant launch) {
        lastLaunch.put(JobRegistry.key(ns, id), launch.toEpochMilli());
        store.putPeriodicLaunch(new JobStore.PeriodicLaunch(ns, id, launch.toEpochMilli()));
    }

    /** The last launch (or the registration the schedule starts from) of the job, if known. */
    public Optional<Instant> lastLaunch(String ns, String id) {
        return Optional.ofNullable(lastLaunch.get(JobRegistry.key(ns, id))).map(Instant::ofEpochMilli);
    }

    /** Nomad's {@code NextPeriodicLaunch} for a plan or a job: the next time after now, if the job is active. */
    public Optional<Instant> nextLaunch(JsonNode job) {
        if (!active(job)) {
            return Optional.empty();
        }
        try {
            CronSchedule s = schedule(job);
            return s.next(clock.instant().atZone(s.zone())).map(ZonedDateTime::toInstant);
        } catch (CronSchedule.InvalidScheduleException e) {
            return Optional.empty();
        }
    }

    public void start() {
        loop.start();
    }

    public boolean running() {
        return loop.running();
    }

    @Override
    public void close() {
        loop.stop();
    }
}
