package dev.berth.api;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The one place that turns exceptions into RFC 9457 problem details, by exception <em>type</em>:
 * <ul>
 *   <li>the feature packages' own exceptions (invalid spec, admission refused, unknown alloc or task, …): the status,
 *       title and detail {@link DomainErrors} gives them;</li>
 *   <li>{@link ApiException} and any other {@code ErrorResponse} (404, 409, …): its status and detail;</li>
 *   <li>malformed JSON, type mismatches: 400 (Nomad's {@code Failed to decode body: …}, with the
 *       JSON path in {@code field} when known); a body over {@code berth.api.max-request-body-size}: 413
 *       (see {@link BodyProblems});</li>
 *   <li>unknown route: 404; wrong method: 405; unsupported media type: 415 (Spring MVC's standard mapping,
 *       inherited from {@link ResponseEntityExceptionHandler});</li>
 *   <li>anything else: 500 with a generic detail; the stack trace goes to the log, never to the client.</li>
 * </ul>
 * Extending {@code ResponseEntityExceptionHandler} also makes Boot's default problem-details handler back off,
 * so there is exactly one mapping.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    static final String INTERNAL_ERROR = "Internal error; see the agent log";

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        ProblemDetail body = BodyProblems.unreadable(ex);
        if (body.getStatus() == HttpStatus.BAD_REQUEST.value()) {
            body.setTitle("Malformed request body");
        }
        return handleExceptionInternal(ex, body, headers, HttpStatusCode.valueOf(body.getStatus()), request);
    }

    @Override
    protected ResponseEntity<Object> handleNoResourceFoundException(NoResourceFoundException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                "No endpoint " + ex.getHttpMethod() + " /" + ex.getResourcePath());
        return handleExceptionInternal(ex, body, headers, HttpStatus.NOT_FOUND, request);
    }

    /** Tomcat refuses a query it cannot decode ({@code ?path=%ZZ}) only when a parameter is read: the client's fault. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> invalidParameter(InvalidParameterException ex, WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Invalid query parameter encoding");
        return handleExceptionInternal(ex, body, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    /**
     * Every exception no more specific handler took: a feature exception through {@link DomainErrors} (the one list of
     * them); anything else is unexpected: 500, logged with its stack trace, which the client never sees.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> domainOrUnexpected(Exception ex, WebRequest request) {
        ProblemDetail domain = DomainErrors.problem(ex);
        if (domain != null) {
            // negotiated like every other problem: JSON, or Nomad's plain text for Nomad's own clients (NomadErrorText)
            return handleExceptionInternal(ex, domain, new HttpHeaders(), HttpStatusCode.valueOf(domain.getStatus()), request);
        }
        RequestBodyTooLargeException tooLarge = BodyProblems.tooLargeCause(ex);
        if (tooLarge != null) {
            // the body was read by something other than a JSON @RequestBody: still the client's fault
            return handleExceptionInternal(ex, BodyProblems.tooLarge(tooLarge.limit()), new HttpHeaders(),
                    HttpStatus.CONTENT_TOO_LARGE, request);
        }
        log.error("Request {} failed", request.getDescription(false), ex);
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, INTERNAL_ERROR);
        return handleExceptionInternal(ex, body, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
    }
}
