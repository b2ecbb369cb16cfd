package dev.berth.job.hcl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The example jobspecs users read: those written out in README.md and docs/*.md (a {@code cat > NAME <<'HCL'} heredoc or
 * an {@code hcl} code fence holding a job) and the jobspecs under src/test/resources/jobspecs, by name.
 */
final class ExampleJobspecs {

    private static final Pattern HEREDOC = Pattern.compile("(?s)cat > (\\S+?)(?:\\.nomad)?\\.hcl <<'HCL'\\n(.*?\\n)HCL\\n");
    private static final Pattern FENCE = Pattern.compile("(?s)```hcl\\n(.*?\\n)```");

    private ExampleJobspecs() {
    }

    static Map<String, String> all() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            for (Path md : Stream.concat(Stream.of(Path.of("README.md")), docs.filter((p) -> p.toString().endsWith(".md")).sorted()).toList()) {
                String text = Files.readString(md);
                String doc = md.getFileName().toString().replace(".md", "");
                Matcher h = HEREDOC.matcher(text);
                while (h.find()) {
                    out.put(doc + "-" + h.group(1), h.group(2));
                }
                Matcher f = FENCE.matcher(text);
                for (int i = 1; f.find(); i++) {
                    if (f.group(1).contains("job \"")) {
                        out.put(doc + "-fence-" + i, f.group(1));
                    }
                }
            }
        }
        try (Stream<Path> specs = Files.list(Path.of("src/test/resources/jobspecs"))) {
            for (Path p : specs.filter((p) -> p.toString().endsWith(".hcl")).sorted().toList()) {
                out.put("resource-" + p.getFileName().toString().replace(".nomad.hcl", ""), Files.readString(p));
            }
        }
        return out;
    }
}
