package dev.berth.artifact;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.berth.alloc.spec.ArtifactSpecs;
import dev.berth.alloc.spec.TaskArtifactSpec;
import dev.berth.alloc.task.Interpolator;

/**
 * One artifact, resolved for fetching: the task environment interpolated into its source, options and headers (with the
 * agent's own paths for {@code NOMAD_ALLOC_DIR}, {@code NOMAD_TASK_DIR} and {@code NOMAD_SECRETS_DIR}, as Nomad's client
 * does), and its destination made absolute and kept inside the task directory or the shared {@code alloc/} directory.
 *
 * @param source      the source as written (for messages)
 * @param uri         what is fetched: for http(s) the options other than {@code checksum}, {@code archive} and
 *                    {@code filename} are added to its query, as go-getter sends them
 * @param destination absolute path on this host
 * @param mode        {@code any}, {@code file} or {@code dir}
 * @param headers     HTTP request headers
 * @param insecure    skip TLS verification
 * @param checksum    {@code type:value}, or null
 * @param archive     the {@code archive} option: null to detect by extension, {@code false} to keep the file packed, or a format
 * @param filename    the {@code filename} option: the file's name in {@code any} mode instead of the URL's last element
 */
record ArtifactRequest(String source, URI uri, Path destination, String mode, Map<String, String> headers, boolean insecure,
                       String checksum, String archive, String filename) {

    /**
     * @param env      the task environment
     * @param taskDir  the task directory on this host
     * @param allocDir the allocation directory on this host (its {@code alloc/} is the shared directory)
     */
    static ArtifactRequest resolve(TaskArtifactSpec spec, Interpolator env, Path taskDir, Path allocDir) throws ArtifactException {
        Map<String, String> client = new LinkedHashMap<>(env.env());
        Path shared = allocDir.resolve("alloc");
        client.put("NOMAD_ALLOC_DIR", shared.toString());
        client.put("NOMAD_TASK_DIR", taskDir.resolve("local").toString());
        client.put("NOMAD_SECRETS_DIR", taskDir.resolve("secrets").toString());
        Interpolator e = env.withEnv(client);

        Map<String, String> options = new TreeMap<>();
        spec.options().forEach((k, v) -> options.put(k, e.replace(v)));
        String checksum = options.remove("checksum");
        if (checksum != null) {
            String problem = ArtifactSpecs.checksumProblem(checksum);
            if (problem != null) {
                throw new ArtifactException(problem);
            }
            checksum = checksum.strip();
        }
        String archive = options.remove("archive");
        String filename = options.remove("filename");
        URI uri = uri(e.replace(spec.source()), options);
        Map<String, String> headers = new LinkedHashMap<>();
        spec.headers().forEach((k, v) -> headers.put(k, e.replace(v)));
        return new ArtifactRequest(spec.source(), uri, destination(e.replace(spec.destination()), taskDir, shared), spec.mode(),
                headers, spec.insecure(), checksum, archive, filename);
    }

    /** Nomad's {@code ClientPath}: relative (or escaping) paths join the task directory; the result stays in the sandbox. */
    private static Path destination(String raw, Path taskDir, Path shared) throws ArtifactException {
        Path p = Path.of(raw);
        if (!p.isAbsolute() || escapes(p.normalize(), taskDir, shared)) {
            p = Path.of(taskDir + "/" + raw);
        }
        p = p.normalize();
        if (escapes(p, taskDir, shared)) {
            throw new ArtifactException("artifact destination path escapes alloc directory");
        }
        return p;
    }

    private static boolean escapes(Path p, Path taskDir, Path shared) {
        return !p.startsWith(taskDir.normalize()) && !p.startsWith(shared.normalize());
    }

    private static URI uri(String source, Map<String, String> options) throws ArtifactException {
        URI u;
        try {
            u = new URI(source);
        } catch (URISyntaxException ex) {
            throw new ArtifactException("failed to parse source URL \"" + source + "\": " + ex.getMessage());
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("file")) {
            throw new ArtifactException("download not supported for scheme '" + scheme
                    + "' (this agent fetches http, https and file sources)");
        }
        if (options.isEmpty() || scheme.equals("file")) {
            return u;
        }
        StringBuilder q = new StringBuilder(u.getRawQuery() == null ? "" : u.getRawQuery());
        options.forEach((k, v) -> q.append(q.isEmpty() ? "" : "&").append(enc(k)).append('=').append(enc(v)));
        String s = source;
        int hash = s.indexOf('#');
        String fragment = hash < 0 ? "" : s.substring(hash);
        s = hash < 0 ? s : s.substring(0, hash);
        int question = s.indexOf('?');
        s = question < 0 ? s : s.substring(0, question);
        return URI.create(s + "?" + q + fragment);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    boolean isFile() {
        return "file".equalsIgnoreCase(uri.getScheme());
    }
}
