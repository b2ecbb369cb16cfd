package dev.berth.service.probe;

/**
 * One probe's outcome.
 *
 * @param success    whether the probe passed
 * @param statusCode the HTTP status (0 for other types; a script's exit code)
 * @param output     what a person should read: Nomad's {@code nomad: http ok} / {@code nomad: tcp ok}, a response body, an
 *                   error or a script's output (at most {@link #OUTPUT_LIMIT} characters)
 */
public record ProbeResult(boolean success, int statusCode, String output) {

    /** Nomad keeps at most 3 KiB of a check's output. */
    public static final int OUTPUT_LIMIT = 3 * 1024;

    public ProbeResult {
        output = output == null ? "" : output.length() > OUTPUT_LIMIT ? output.substring(0, OUTPUT_LIMIT) : output;
    }

    public static ProbeResult failure(String output) {
        return new ProbeResult(false, 0, output);
    }
}
