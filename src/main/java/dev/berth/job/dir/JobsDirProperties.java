package dev.berth.job.dir;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The jobs directory ({@code berth.jobs.*}).
 *
 * @param dir          the directory whose {@code *.nomad.hcl}, {@code *.hcl} and {@code *.json} files are jobs; unset (the
 *                     default) turns the feature off
 * @param pollInterval how often the directory is compared with what was loaded
 */
@ConfigurationProperties("berth.jobs")
public record JobsDirProperties(Path dir, @DefaultValue("2s") Duration pollInterval) {
}
