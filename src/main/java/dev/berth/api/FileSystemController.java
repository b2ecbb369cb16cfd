package dev.berth.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import jakarta.servlet.http.HttpServletResponse;

import dev.berth.alloc.fs.AllocFileInfo;
import dev.berth.alloc.fs.AllocFileSystem;
import dev.berth.alloc.fs.FrameStreamer;
import dev.berth.alloc.fs.FsAccessException;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Nomad's client filesystem API over allocation directories: {@code ls}, {@code stat}, {@code cat}, {@code readat},
 * {@code stream} and {@code logs}. Every path goes through the alloc-dir path guard; reads under a task's
 * {@code secrets/} or {@code private/} are refused. Streaming handlers write on the request's (virtual) thread.
 */
@RestController
class FileSystemController implements SmartLifecycle {

    private final AllocFileSystem fs;
    private final FrameStreamer streamer;
    /** Set when the agent stops, before the web server's graceful shutdown waits for open followers. */
    private final AtomicBoolean stopped = new AtomicBoolean(true);

    FileSystemController(AllocFileSystem fs) {
        this.fs = fs;
        this.streamer = new FrameStreamer();
    }

    /** Nomad's {@code AllocFileInfo}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record FileInfo(@JsonProperty("Name") String name, @JsonProperty("IsDir") boolean isDir, @JsonProperty("Size") long size,
            @JsonProperty("FileMode") String fileMode, @JsonProperty("ModTime") Instant modTime,
            @JsonProperty("ContentType") String contentType) {

        static FileInfo of(AllocFileInfo info) {
            return new FileInfo(info.name(), info.dir(), info.size(), info.fileMode(), info.modTime(), info.contentType());
        }
    }

    @GetMapping("/v1/client/fs/ls/{allocId}")
    List<FileInfo> list(@PathVariable String allocId, @RequestParam(defaultValue = "/") String path) {
        return fs.list(allocId, path).stream().map(FileInfo::of).toList();
    }

    @GetMapping("/v1/client/fs/stat/{allocId}")
    FileInfo stat(@PathVariable String allocId, @RequestParam(required = false) String path) {
        return FileInfo.of(fs.stat(allocId, path));
    }

    @GetMapping("/v1/client/fs/cat/{allocId}")
    ResponseEntity<byte[]> cat(@PathVariable String allocId, @RequestParam(required = false) String path) {
        Path file = fs.fileForRead(allocId, path);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).body(AllocFileSystem.readAt(file, 0, -1));
    }

    @GetMapping("/v1/client/fs/readat/{allocId}")
    ResponseEntity<byte[]> readAt(@PathVariable String allocId, @RequestParam(required = false) String path,
            @RequestParam(required = false) Long offset, @RequestParam(required = false) Long limit) {
        if (offset == null) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "must provide an offset");
        }
        Path file = fs.fileForRead(allocId, path);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM)
                .body(AllocFileSystem.readAt(file, offset, limit == null ? -1 : limit));
    }

    @GetMapping("/v1/client/fs/stream/{allocId}")
    void stream(@PathVariable String allocId, @RequestParam(required = false) String path,
            @RequestParam(defaultValue = "0") long offset, @RequestParam(defaultValue = "start") String origin,
            @RequestParam(defaultValue = "true") boolean follow, HttpServletResponse response)
            throws IOException, InterruptedException {
        FrameStreamer.Origin from = origin(origin);
        if (offset < 0) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "offset must be non-negative");
        }
        Path file = fs.fileForRead(allocId, path);
        String name = fs.guard(allocId).relative(file);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        OutputStream out = response.getOutputStream();
        streamer.streamFile(file, name, offset, from, follow, false, out, endOfFollow(allocId));
    }

    @GetMapping("/v1/client/fs/logs/{allocId}")
    void logs(@PathVariable String allocId, @RequestParam(required = false) String task,
            @RequestParam(required = false) String type, @RequestParam(defaultValue = "false") boolean follow,
            @RequestParam(defaultValue = "false") boolean plain, @RequestParam(defaultValue = "0") long offset,
            @RequestParam(defaultValue = "start") String origin, HttpServletResponse response)
            throws IOException, InterruptedException {
        if (task == null || task.isBlank()) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "must provide task name");
        }
        if (!"stdout".equals(type) && !"stderr".equals(type)) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "must provide log type (stdout/stderr)");
        }
        if (task.contains("/") || task.contains("\0") || task.contains("..")) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "invalid task name");
        }
        if (offset < 0) {
            throw new FsAccessException(FsAccessException.Kind.MALFORMED, "offset must be non-negative");
        }
        FrameStreamer.Origin from = origin(origin);
        Path logDir = fs.logDir(allocId);
        // the first read decides between a 404 problem and a 200 stream, so headers are set only once data may flow
        response.setContentType(plain ? MediaType.TEXT_PLAIN_VALUE : MediaType.APPLICATION_JSON_VALUE);
        streamer.streamLogs(logDir, task, type, offset, from, follow, plain, new LazyOutput(response), endOfFollow(allocId));
    }

    /**
     * A follower ends when the agent stops or the allocation's directory is gone (destroyed): a plain follower of a
     * quiet task writes nothing, so it would never notice that its client went away.
     */
    private BooleanSupplier endOfFollow(String allocId) {
        Path root = fs.guard(allocId).root();
        return () -> stopped.get() || !Files.isDirectory(root);
    }

    @Override
    public void start() {
        stopped.set(false);
    }

    @Override
    public void stop() {
        stopped.set(true);
    }

    @Override
    public boolean isRunning() {
        return !stopped.get();
    }

    private static FrameStreamer.Origin origin(String origin) {
        return switch (origin) {
            case "start" -> FrameStreamer.Origin.START;
            case "end" -> FrameStreamer.Origin.END;
            default -> throw new FsAccessException(FsAccessException.Kind.MALFORMED, "origin must be start or end");
        };
    }

    /** Opens the response stream only on the first write, so an early error can still become a problem response. */
    private static final class LazyOutput extends OutputStream {
        private final HttpServletResponse response;
        private OutputStream delegate;

        LazyOutput(HttpServletResponse response) {
            this.response = response;
        }

        private OutputStream out() throws IOException {
            if (delegate == null) {
                delegate = response.getOutputStream();
            }
            return delegate;
        }

        @Override
        public void write(int b) throws IOException {
            out().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out().flush();
        }
    }
}
