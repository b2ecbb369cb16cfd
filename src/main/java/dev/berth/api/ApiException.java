package dev.berth.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * An error a controller reports to the client: an HTTP status plus Nomad's error text, which becomes the
 * problem detail's {@code detail}. Throw one of the subclasses (or this class for a rarer status); the
 * {@link ProblemDetailsAdvice} renders it as {@code application/problem+json}. Feature packages never see this
 * type: controllers translate feature outcomes into it.
 */
public class ApiException extends ErrorResponseException {

    public ApiException(HttpStatusCode status, String detail) {
        this(status, detail, null);
    }

    public ApiException(HttpStatusCode status, String detail, Throwable cause) {
        super(status, ProblemDetail.forStatusAndDetail(status, detail), cause);
    }

    /** Nomad's error text as sent to the client. */
    public String detail() {
        return getBody().getDetail();
    }

    /** 400: the request cannot be understood (Nomad: {@code Failed to decode body: …}, missing parameters). */
    public static class BadRequest extends ApiException {
        public BadRequest(String detail) {
            super(HttpStatus.BAD_REQUEST, detail);
        }
    }

    /** 403: the ACL token lacks a capability (Nomad: {@code Permission denied}). */
    public static class Forbidden extends ApiException {
        public Forbidden(String detail) {
            super(HttpStatus.FORBIDDEN, detail);
        }
    }

    /** 404: the addressed resource does not exist (Nomad: {@code Unknown allocation "<id>"}). */
    public static class NotFound extends ApiException {
        public NotFound(String detail) {
            super(HttpStatus.NOT_FOUND, detail);
        }
    }

    /** 405: the method is not allowed on this resource (Nomad: {@code Invalid method}). */
    public static class MethodNotAllowed extends ApiException {
        public MethodNotAllowed(String detail) {
            super(HttpStatus.METHOD_NOT_ALLOWED, detail);
        }
    }

    /** 409: the request conflicts with the node's state (admission refused, stale update). */
    public static class Conflict extends ApiException {
        public Conflict(String detail) {
            super(HttpStatus.CONFLICT, detail);
        }
    }
}
