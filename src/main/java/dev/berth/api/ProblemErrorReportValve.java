package dev.berth.api;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;

import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.http.HttpStatus;

import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error page, as RFC 9457 problem details instead of HTML. It is only reached for requests Tomcat refuses
 * before any Spring code runs (an encoded {@code /}, {@code \} or NUL in the path, a character a request line may not
 * hold); everything else already gets its problem from {@link ProblemDetailsAdvice}. The detail is Tomcat's own short
 * message ({@code Invalid URI}); stack traces and server info are never written.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public ProblemErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    /**
     * Replaces every plain {@link ErrorReportValve} of the host (Spring Boot adds one) with this valve, and names this
     * class as the host's error valve so Tomcat does not add its default one when the host starts.
     */
    static TomcatContextCustomizer installer() {
        return context -> {
            if (context.getParent() instanceof StandardHost host) {
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                host.getPipeline().addValve(new ProblemErrorReportValve());
            }
        };
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", known != null ? known.getReasonPhrase() : "Error");
        problem.put("status", status);
        String message = response.getMessage();
        problem.put("detail", message != null && !message.isBlank() ? message : known != null ? known.getReasonPhrase() : "Error");
        String uri = request.getRequestURI();
        if (uri != null && !uri.isEmpty()) {
            problem.put("instance", uri);
        }
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(problem));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot take a body: nothing more to report
        }
    }
}
