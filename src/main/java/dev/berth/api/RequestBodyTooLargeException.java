package dev.berth.api;

import java.io.IOException;

/**
 * Thrown by the body stream of a {@code /v1/} request once more than {@code berth.api.max-request-body-size} bytes
 * have been read. An {@link IOException} so that every reader (Jackson, Spring's converters) treats it as a failed read
 * and stops; {@link BodyProblems} finds it in the cause chain and answers 413.
 */
final class RequestBodyTooLargeException extends IOException {

    private final long limit;

    RequestBodyTooLargeException(long limit) {
        super("Request body exceeds the limit of " + limit + " bytes");
        this.limit = limit;
    }

    long limit() {
        return limit;
    }
}
