package dev.berth.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import dev.berth.alloc.AllocExceptions.AllocStateException;
import dev.berth.alloc.AllocExceptions.InvalidLifecycleRequestException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.fs.FsAccessException;
import dev.berth.alloc.gc.NotEligibleForGcException;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.job.JobException;
import dev.berth.namespace.NamespaceException;
import dev.berth.variables.VariableException;
import dev.berth.volume.HostVolumeException;

/**
 * The one mapping from the feature packages' exceptions (named for what went wrong) to HTTP: each becomes an RFC 9457
 * problem with a status, a title, and Nomad's error text as {@code detail}. The cases of {@link #problem} are the one
 * list of those exceptions: {@link ProblemDetailsAdvice} asks it about every exception no more specific handler took,
 * so a new feature exception is mapped by adding its case here, nowhere else. Feature code never names an HTTP status.
 */
final class DomainErrors {

    private DomainErrors() {
    }

    /** The problem for {@code e}, or null when {@code e} is not a domain exception (then it is unexpected: a 500). */
    static ProblemDetail problem(Throwable e) {
        return switch (e) {
            case SpecValidationException s -> {
                ProblemDetail pd = of(HttpStatus.BAD_REQUEST, "Invalid allocation", s.getMessage());
                pd.setProperty("field", s.field());
                yield pd;
            }
            case AdmissionException a -> {
                ProblemDetail pd = of(HttpStatus.CONFLICT, "Allocation does not fit this node", a.getMessage());
                pd.setProperty("resource", a.resource());
                yield pd;
            }
            case UnknownAllocException u -> of(HttpStatus.NOT_FOUND, "Unknown allocation", u.getMessage());
            case UnknownTaskException u -> of(HttpStatus.NOT_FOUND, "Unknown task", u.getMessage());
            case InvalidLifecycleRequestException i -> of(HttpStatus.BAD_REQUEST, "Invalid request", i.getMessage());
            case AllocStateException c -> of(HttpStatus.CONFLICT, "Not allowed in the allocation's state", c.getMessage());
            // Nomad answers 500 with this text; the alloc is known but still running, which is a conflict, not a crash
            case NotEligibleForGcException n -> of(HttpStatus.CONFLICT, "Allocation not eligible for GC", n.getMessage());
            case FsAccessException f -> switch (f.kind()) {
                case ESCAPE -> of(HttpStatus.FORBIDDEN, "Path escapes the alloc directory", f.getMessage());
                case FORBIDDEN -> of(HttpStatus.FORBIDDEN, "Permission denied", f.getMessage());
                case MALFORMED -> of(HttpStatus.BAD_REQUEST, "Bad request", f.getMessage());
                case NOT_FOUND -> of(HttpStatus.NOT_FOUND, "Not found", f.getMessage());
            };
            case JobException j -> switch (j.kind()) {
                case INVALID -> of(HttpStatus.BAD_REQUEST, "Invalid job request", j.getMessage());
                case NOT_FOUND -> of(HttpStatus.NOT_FOUND, "Not found", j.getMessage());
                case STALE_INDEX -> of(HttpStatus.CONFLICT, "Job modified since the given index", j.getMessage());
            };
            case NamespaceException n -> switch (n.kind()) {
                case INVALID -> of(HttpStatus.BAD_REQUEST, "Invalid namespace request", n.getMessage());
                case NOT_FOUND -> of(HttpStatus.NOT_FOUND, "Namespace not found", n.getMessage());
                // Nomad answers 500; the namespace still holds objects, which is a conflict with the node's state
                case NOT_EMPTY -> of(HttpStatus.CONFLICT, "Namespace not empty", n.getMessage());
            };
            case VariableException v -> switch (v.kind()) {
                case INVALID -> of(HttpStatus.BAD_REQUEST, "Invalid variable request", v.getMessage());
                case NOT_FOUND -> of(HttpStatus.NOT_FOUND, "Variable not found", v.getMessage());
                case LOCK_CONFLICT -> of(HttpStatus.CONFLICT, "Variable lock conflict", v.getMessage());
                case PERMISSION_DENIED -> of(HttpStatus.FORBIDDEN, "Permission denied", v.getMessage());
                // the node key that sealed it is gone: the node's state, not the request, is at fault
                case UNREADABLE -> of(HttpStatus.INTERNAL_SERVER_ERROR, "Variable unreadable", v.getMessage());
            };
            case HostVolumeException h -> switch (h.kind()) {
                // Nomad answers these with 500: a request that breaks a rule is the caller's to fix
                case INVALID -> of(HttpStatus.BAD_REQUEST, "Invalid host volume request", h.getMessage());
                case NOT_FOUND -> of(HttpStatus.NOT_FOUND, "Host volume not found", h.getMessage());
                case IN_USE -> of(HttpStatus.CONFLICT, "Host volume in use", h.getMessage());
            };
            default -> null;
        };
    }

    private static ProblemDetail of(HttpStatus status, String title, String detail) {
        ProblemDetail pd = ProblemDetail.forStatusAndDetail(status, detail);
        pd.setTitle(title);
        return pd;
    }
}
