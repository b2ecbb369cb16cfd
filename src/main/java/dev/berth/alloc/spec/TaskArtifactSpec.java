package dev.berth.alloc.spec;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One of a task's {@code artifact} blocks (Nomad's {@code TaskArtifact}): what the {@code artifacts} prestart hook fetches
 * into the task directory before the task starts. Nomad's defaults are filled here: mode {@code any}; a destination of
 * {@code local/}, or {@code local/<file name of the source>} in {@code file} mode.
 *
 * @param source      the URL ({@code http}, {@code https}, {@code file}); the task environment is interpolated into it
 * @param options     go-getter's URL query options: {@code checksum} ({@code type:value}), {@code archive} ({@code false}
 *                    keeps an archive packed, or names the archive type); the others travel as query parameters
 * @param headers     HTTP request headers, values interpolated
 * @param mode        {@code any}, {@code file} or {@code dir}
 * @param insecure    skip TLS certificate verification
 * @param destination the path relative to the task directory; may reach the shared {@code alloc/} directory, never leave
 *                    the allocation directory
 * @param chown       hand the fetched files to the task's user
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TaskArtifactSpec(@JsonProperty("GetterSource") String source,
                               @JsonProperty("GetterOptions") Map<String, String> options,
                               @JsonProperty("GetterHeaders") Map<String, String> headers,
                               @JsonProperty("GetterMode") String mode,
                               @JsonProperty("GetterInsecure") Boolean insecure,
                               @JsonProperty("RelativeDest") String destination,
                               @JsonProperty("Chown") Boolean chown) {

    public static final String MODE_ANY = "any";
    public static final String MODE_FILE = "file";
    public static final String MODE_DIR = "dir";

    public TaskArtifactSpec {
        source = source == null ? "" : source;
        options = options == null ? Map.of() : Map.copyOf(options);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        mode = mode == null || mode.isEmpty() ? MODE_ANY : mode;
        insecure = Boolean.TRUE.equals(insecure);
        chown = Boolean.TRUE.equals(chown);
        if (destination == null) {
            destination = MODE_FILE.equals(mode) ? "local/" + baseName(source) : "local/";
        }
    }

    /** The last path element of a source, as Go's {@code path.Base} gives it (a query is part of the text, as in Nomad). */
    private static String baseName(String source) {
        String s = source;
        while (s.length() > 1 && s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        int slash = s.lastIndexOf('/');
        return slash < 0 ? s : s.substring(slash + 1);
    }
}
