package dev.berth.job.dir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.job.JobException;
import dev.berth.job.hcl.JobspecParser;

/**
 * The jobs directory ({@code berth.jobs.dir}): every {@code *.nomad.hcl}, {@code *.hcl} and {@code *.json} file in it is
 * a job, registered when it appears or its content changes and stopped when the file goes away. A file that cannot be
 * read, parsed or registered changes nothing (its job keeps the last good version) and is reported through
 * {@link Problems}; the other files load regardless. One {@link #scan()} compares the directory with what the last scan
 * saw (content hashes); the agent runs it at start and every poll interval.
 */
public class JobsDirectory {

    private static final Logger log = LoggerFactory.getLogger(JobsDirectory.class);

    /** Where the jobs go (the node's job API). */
    public interface Jobs {
        /** Registers (or updates) the job given as Nomad's job JSON; returns its namespace and ID. */
        JobKey register(ObjectNode job) throws JobException;

        /** Stops the job (as {@code DELETE /v1/job/{id}}); a job that is already gone is no error. */
        void stop(JobKey job);
    }

    /** Where a broken file is reported: a node event, a metric. */
    public interface Problems {
        void broken(Path file, String error);
    }

    /** A job's namespace and ID. */
    public record JobKey(String namespace, String id) {
    }

    /** What the directory held at the last scan for one file. */
    private record Seen(String hash, JobKey job, String error) {
    }

    private final Path dir;
    private final Jobs jobs;
    private final Problems problems;
    private final JobspecParser parser = new JobspecParser();
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<Path, Seen> seen = new HashMap<>();

    public JobsDirectory(Path dir, Jobs jobs, Problems problems) {
        this.dir = dir;
        this.jobs = jobs;
        this.problems = problems;
    }

    public Path dir() {
        return dir;
    }

    /** The job files now in the directory, in name order. */
    static boolean isJobFile(Path p) {
        String n = p.getFileName().toString();
        return !n.startsWith(".") && (n.endsWith(".hcl") || n.endsWith(".json")) && Files.isRegularFile(p);
    }

    /** Files whose last version could not be loaded, with the reason. */
    public synchronized Map<Path, String> brokenFiles() {
        Map<Path, String> out = new LinkedHashMap<>();
        seen.forEach((p, s) -> {
            if (s.error() != null) {
                out.put(p, s.error());
            }
        });
        return out;
    }

    /** Compares the directory with the last scan: registers new and changed files, stops the jobs of removed ones. */
    public synchronized void scan() {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(JobsDirectory::isJobFile).sorted().toList();
        } catch (IOException e) {
            log.warn("Jobs directory {} cannot be listed: {}", dir, e.toString());
            return;
        }
        for (Path gone : seen.keySet().stream().filter(p -> !files.contains(p)).sorted().toList()) {
            Seen s = seen.remove(gone);
            if (s.job() != null && !definedElsewhere(s.job(), gone)) {
                log.info("Jobs directory: {} removed, stopping job {}", gone.getFileName(), s.job().id());
                jobs.stop(s.job());
            }
        }
        for (Path file : files) {
            load(file);
        }
    }

    private void load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            fail(file, null, "cannot read: " + e.getMessage());
            return;
        }
        String hash = sha256(bytes);
        Seen before = seen.get(file);
        if (before != null && before.hash().equals(hash)) {
            return;
        }
        try {
            ObjectNode job = parse(file, new String(bytes, StandardCharsets.UTF_8));
            String ns = job.path("Namespace").asString("default");
            Optional<Path> other = owner(new JobKey(ns.isEmpty() ? "default" : ns, job.path("ID").asString()), file);
            if (other.isPresent()) {
                throw new IllegalArgumentException("job " + job.path("ID").asString() + " is already defined by " + other.get().getFileName());
            }
            JobKey key = jobs.register(job);
            if (before != null && before.job() != null && !before.job().equals(key) && !definedElsewhere(before.job(), file)) {
                log.info("Jobs directory: {} now defines job {}, stopping job {}", file.getFileName(), key.id(), before.job().id());
                jobs.stop(before.job());
            }
            seen.put(file, new Seen(hash, key, null));
            log.info("Jobs directory: registered job {} from {}", key.id(), file.getFileName());
        } catch (JobspecParser.JobspecException | JobException | IllegalArgumentException | JacksonException e) {
            fail(file, hash, e.getMessage() == null ? e.toString() : e.getMessage().strip());
        }
    }

    private void fail(Path file, String hash, String error) {
        Seen before = seen.get(file);
        // the job keeps its last good version: remember the job, mark the file broken until its content changes
        seen.put(file, new Seen(hash == null ? "" : hash, before == null ? null : before.job(), error));
        log.warn("Jobs directory: {} not loaded, nothing changed: {}", file.getFileName(), error);
        problems.broken(file, error);
    }

    private ObjectNode parse(Path file, String text) throws JobspecParser.JobspecException {
        if (file.getFileName().toString().endsWith(".json")) {
            JsonNode n = json.readTree(text);
            JsonNode job = n != null && n.path("Job").isObject() ? n.get("Job") : n;
            if (!(job instanceof ObjectNode o)) {
                throw new IllegalArgumentException("expected a job object (or {\"Job\": {...}})");
            }
            return o;
        }
        return parser.parse(text, file.getFileName().toString(), "");
    }

    private Optional<Path> owner(JobKey key, Path except) {
        return seen.entrySet().stream().filter(e -> !e.getKey().equals(except) && key.equals(e.getValue().job()))
                .map(Map.Entry::getKey).findFirst();
    }

    private boolean definedElsewhere(JobKey key, Path except) {
        return owner(key, except).isPresent();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
