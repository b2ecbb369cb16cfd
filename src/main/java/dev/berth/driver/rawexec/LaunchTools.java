package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The host tools the launch line needs, found once per driver.
 *
 * @param setsid           path of {@code setsid}, or null when the host has none (the driver reports unhealthy)
 * @param envDefaultSignal whether {@code /usr/bin/env} supports {@code --default-signal} (coreutils ≥ 8.31)
 */
record LaunchTools(String setsid, boolean envDefaultSignal) {

    static LaunchTools detect() {
        String setsid = null;
        for (String candidate : new String[] {"/usr/bin/setsid", "/bin/setsid"}) {
            if (Files.isExecutable(Path.of(candidate))) {
                setsid = candidate;
                break;
            }
        }
        return new LaunchTools(setsid, probeEnvDefaultSignal());
    }

    /** One short probe at construction, never per task. */
    private static boolean probeEnvDefaultSignal() {
        if (!Files.isExecutable(Path.of("/usr/bin/env"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("/usr/bin/env", "--default-signal", "/bin/true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException ex) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
