package dev.berth.api;

import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;

/**
 * The problem details for a request body that cannot be decoded, shared by every exception handler so each endpoint
 * answers alike:
 * <ul>
 *   <li>a body over {@code berth.api.max-request-body-size} ({@link RequestBodyTooLargeException} anywhere in the cause
 *       chain): 413;</li>
 *   <li>a JSON value of the wrong type ({@code "TaskName":5}, {@code "CPU":"100"}, {@code "Count":1.5}): 400
 *       {@code Failed to decode body: json: cannot unmarshal number into field TaskName of type string}, Go's wording,
 *       with the JSON path in {@code field};</li>
 *   <li>any other malformed body: 400 {@code Failed to decode body: <parser message>}, with {@code field} when known.</li>
 * </ul>
 * The texts never carry Java class names or the echo of the input that Jackson appends.
 */
final class BodyProblems {

    /** {@code (token `JsonToken.VALUE_TRUE`)} in Jackson's "from X value" messages. */
    private static final Pattern TOKEN = Pattern.compile("JsonToken\\.([A-Z_]+)");
    /** {@code Cannot coerce Integer value (5) to ...}, {@code Cannot coerce empty String ("") to ...}. */
    private static final Pattern COERCE = Pattern.compile("Cannot coerce (empty String|String|Integer|Float|Floating-point|Boolean)");

    private BodyProblems() {
    }

    /** 413 for a body over {@code limit} bytes. */
    static ProblemDetail tooLarge(long limit) {
        ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
                "Request body too large: the limit is " + limit + " bytes (berth.api.max-request-body-size)");
        pd.setProperty("limit", limit);
        return pd;
    }

    /** The problem for a body Spring could not read: 413 when the size limit stopped it, else 400. */
    static ProblemDetail unreadable(HttpMessageNotReadableException ex) {
        RequestBodyTooLargeException tooLarge = tooLargeCause(ex);
        if (tooLarge != null) {
            return tooLarge(tooLarge.limit());
        }
        JacksonException jackson = jacksonCause(ex);
        String field = jackson == null ? null : jsonPath(jackson);
        String reason;
        if (jackson == null) {
            String own = ex.getMessage();
            reason = own != null && own.startsWith("Required request body is missing") ? "Request body is empty" : "malformed request body";
        } else {
            reason = reason(jackson, field);
        }
        ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Failed to decode body: " + reason);
        if (field != null) {
            pd.setProperty("field", field);
        }
        return pd;
    }

    /** The size-limit failure somewhere in {@code failure}'s causes, or null. */
    static RequestBodyTooLargeException tooLargeCause(Throwable failure) {
        for (Throwable each = failure; each != null; each = each.getCause() == each ? null : each.getCause()) {
            if (each instanceof RequestBodyTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    private static JacksonException jacksonCause(Throwable failure) {
        for (Throwable each = failure; each != null; each = each.getCause() == each ? null : each.getCause()) {
            if (each instanceof JacksonException jackson) {
                return jackson;
            }
        }
        return null;
    }

    private static String reason(JacksonException ex, String field) {
        String message = ex.getOriginalMessage() == null ? "" : ex.getOriginalMessage();
        if (message.contains("No content to map")) {
            return "Request body is empty";
        }
        String target = field == null ? "Go value" : "field " + field;
        if (ex instanceof InputCoercionException coercion && coercion.getTargetType() != null) {
            // a number that does not fit (CPU: 99999999999999 into an int)
            return "json: cannot unmarshal number into " + target + " of type " + goType(coercion.getTargetType()) + ": out of range";
        }
        if (ex instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                && !(ex instanceof ValueInstantiationException)) {
            return "json: cannot unmarshal " + jsonKind(mismatch) + " into " + target + " of type " + goType(mismatch.getTargetType());
        }
        if (ex instanceof ValueInstantiationException && ex.getCause() != null && ex.getCause().getMessage() != null) {
            // a record's own check refused the value (a device request without a name): its words, not Jackson's
            return ex.getCause().getMessage();
        }
        String reason = message.strip();
        int newline = reason.indexOf('\n');
        return newline > 0 ? reason.substring(0, newline).strip() : reason;
    }

    /** What the client sent, in Go's words: string, number, bool, array, object. */
    private static String jsonKind(MismatchedInputException ex) {
        String message = ex.getOriginalMessage() == null ? "" : ex.getOriginalMessage();
        Matcher token = TOKEN.matcher(message);
        if (token.find()) {
            return switch (token.group(1)) {
                case "VALUE_STRING" -> "string";
                case "VALUE_NUMBER_INT", "VALUE_NUMBER_FLOAT" -> "number";
                case "VALUE_TRUE", "VALUE_FALSE" -> "bool";
                case "START_ARRAY" -> "array";
                case "START_OBJECT" -> "object";
                case "VALUE_NULL" -> "null";
                default -> "value";
            };
        }
        Matcher coerce = COERCE.matcher(message);
        if (coerce.find()) {
            return switch (coerce.group(1)) {
                case "Integer", "Float", "Floating-point" -> "number";
                case "Boolean" -> "bool";
                default -> "string";
            };
        }
        // "Cannot deserialize value of type `int` from String "many"": the offending value itself
        if (ex instanceof InvalidFormatException invalid && invalid.getValue() != null) {
            return switch (invalid.getValue()) {
                case Boolean b -> "bool";
                case Number n -> "number";
                case String s -> "string";
                default -> "value";
            };
        }
        return "value";
    }

    /** The JSON-level name of a Java target type, in Go's terms where they exist. */
    static String goType(Class<?> type) {
        if (type == String.class || type == Character.class || type == char.class) {
            return "string";
        }
        if (type == Integer.class || type == int.class || type == Short.class || type == short.class
                || type == Byte.class || type == byte.class) {
            return "int";
        }
        if (type == Long.class || type == long.class || type == java.math.BigInteger.class) {
            return "int64";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class
                || type == java.math.BigDecimal.class) {
            return "float64";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "bool";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "array";
        }
        return "object"; // records and maps
    }

    /** The JSON path of the offending value ({@code Job.TaskGroups[0].Tasks[0].Resources.CPU}), not Java class names. */
    static String jsonPath(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? null : path.toString();
    }
}
