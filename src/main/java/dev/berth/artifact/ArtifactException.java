package dev.berth.artifact;

/** One artifact could not be fetched, checked, unpacked or placed; the message says why, for the task event. */
public class ArtifactException extends Exception {

    public ArtifactException(String message) {
        super(message);
    }

    public ArtifactException(String message, Throwable cause) {
        super(message, cause);
    }
}
