package dev.berth.artifact;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.berth.config.PropertyChecks;

/**
 * Artifact download limits ({@code berth.artifact.*}), Nomad's client {@code artifact} block with its defaults.
 *
 * @param httpReadTimeout             the longest one HTTP download may take, from the request to the last byte
 *                                    (Nomad's {@code http_read_timeout})
 * @param httpMaxSize                 the largest HTTP download (Nomad's {@code http_max_size})
 * @param decompressionFileCountLimit the most entries one archive may unpack; 0 for no limit (Nomad's
 *                                    {@code decompression_file_count_limit})
 * @param decompressionSizeLimit      the most bytes one archive may unpack to (Nomad's {@code decompression_size_limit})
 * @param fileSourcePaths             directories a {@code file://} source may read besides the allocation's own directory
 *                                    (Nomad has no file getter at all; Berth reads local files only inside these roots)
 */
@ConfigurationProperties("berth.artifact")
public record ArtifactProperties(@DefaultValue("30m") Duration httpReadTimeout,
                                 @DefaultValue("100GB") DataSize httpMaxSize,
                                 @DefaultValue("4096") int decompressionFileCountLimit,
                                 @DefaultValue("100GB") DataSize decompressionSizeLimit,
                                 @DefaultValue List<Path> fileSourcePaths) {

    public ArtifactProperties {
        PropertyChecks.positive("berth.artifact.http-read-timeout", httpReadTimeout);
        PropertyChecks.positive("berth.artifact.http-max-size", httpMaxSize);
        PropertyChecks.atLeast("berth.artifact.decompression-file-count-limit", decompressionFileCountLimit, 0);
        PropertyChecks.positive("berth.artifact.decompression-size-limit", decompressionSizeLimit);
        fileSourcePaths = fileSourcePaths == null ? List.of() : fileSourcePaths.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    }

    /** Nomad's defaults, no extra file roots. */
    public static ArtifactProperties defaults() {
        return new ArtifactProperties(Duration.ofMinutes(30), DataSize.ofGigabytes(100), 4096, DataSize.ofGigabytes(100), List.of());
    }
}
