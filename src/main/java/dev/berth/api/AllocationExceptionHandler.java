package dev.berth.api;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.berth.alloc.AllocExceptions.BadRequestException;
import dev.berth.alloc.AllocExceptions.ConflictException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.spec.SpecValidationException;

/** Maps the alloc service's exception types to RFC 9457 problem details with Nomad's error text in {@code detail}. */
@RestControllerAdvice(assignableTypes = AllocationController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class AllocationExceptionHandler {

    @ExceptionHandler(SpecValidationException.class)
    ProblemDetail invalid(SpecValidationException e) {
        ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        pd.setTitle("Invalid allocation");
        pd.setProperty("field", e.field());
        return pd;
    }

    /** 400 naming the offending field, or 413 when the body passed the size limit (see {@link BodyProblems}). */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        ProblemDetail pd = BodyProblems.unreadable(e);
        if (pd.getStatus() == HttpStatus.BAD_REQUEST.value()) {
            pd.setTitle("Malformed request body");
        }
        return pd;
    }

    @ExceptionHandler(AdmissionException.class)
    ProblemDetail admission(AdmissionException e) {
        ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        pd.setTitle("Allocation does not fit this node");
        pd.setProperty("resource", e.resource());
        return pd;
    }

    @ExceptionHandler({UnknownAllocException.class, UnknownTaskException.class})
    ProblemDetail notFound(Exception e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(BadRequestException.class)
    ProblemDetail badRequest(BadRequestException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(ConflictException.class)
    ProblemDetail conflict(ConflictException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }
}
