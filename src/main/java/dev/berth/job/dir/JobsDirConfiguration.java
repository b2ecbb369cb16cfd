package dev.berth.job.dir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import tools.jackson.databind.node.ObjectNode;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.job.JobException;
import dev.berth.job.JobService;
import dev.berth.job.KickLoop;

/**
 * Wires the jobs directory when {@code berth.jobs.dir} is set: the directory is scanned when the agent starts (after the
 * scheduler) and every {@code berth.jobs.poll-interval}; a broken file is a node event (subsystem {@code Jobs}), a log
 * line and a metric. The loop survives a lifecycle stop and start (what the directory held stays known in between).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "berth.jobs.dir")
class JobsDirConfiguration {

    static final BerthMetric LOAD_FAILURES = BerthMetric.of("berth.jobs.dir.load.failures", "nomad.client.jobs_dir.load_failures",
            "Jobs-directory files that could not be loaded (each bad version of a file counts once)");
    static final BerthMetric BROKEN_FILES = BerthMetric.of("berth.jobs.dir.broken.files", "nomad.client.jobs_dir.broken_files",
            "Jobs-directory files whose current content could not be loaded");

    @Bean
    JobsDirectory jobsDirectory(JobsDirProperties props, JobService service, NodeRegistry node, BerthMetrics metrics) throws IOException {
        Files.createDirectories(props.dir());
        Counter failures = metrics.counter(LOAD_FAILURES, MetricScope.NODE, List.of());
        JobsDirectory.Jobs jobs = new JobsDirectory.Jobs() {
            @Override
            public JobsDirectory.JobKey register(ObjectNode job) throws JobException {
                service.register(job, null);
                String ns = job.path("Namespace").asString("");
                return new JobsDirectory.JobKey(ns.isEmpty() ? "default" : ns, job.path("ID").asString());
            }

            @Override
            public void stop(JobsDirectory.JobKey job) {
                try {
                    service.deregister(job.namespace(), job.id(), false);
                } catch (JobException e) {
                    // already gone (purged through the API): nothing to stop
                }
            }
        };
        JobsDirectory directory = new JobsDirectory(props.dir().toAbsolutePath(), jobs, (file, error) -> {
            failures.increment();
            node.addEvent("Jobs", "Job file " + file.getFileName() + " not loaded: " + error, Map.of("file", file.toString()));
        });
        metrics.gauge(BROKEN_FILES, MetricScope.NODE, List.of(), directory, d -> d.brokenFiles().size());
        return directory;
    }

    /** Scans after the scheduler (phase 10) and the periodic launcher (11) have started. */
    @Bean
    SmartLifecycle jobsDirectoryLifecycle(JobsDirectory directory, JobsDirProperties props) {
        KickLoop loop = new KickLoop("berth-jobs-dir", props.pollInterval(), directory::scan);
        return new SmartLifecycle() {
            @Override
            public void start() {
                loop.start();
                loop.kick();
            }

            @Override
            public void stop() {
                loop.stop();
            }

            @Override
            public boolean isRunning() {
                return loop.running();
            }

            @Override
            public int getPhase() {
                return 12;
            }
        };
    }
}
