package dev.berth.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Errors as a Nomad client shows them. Nomad answers an error with its status code and the error text as a
 * {@code text/plain} body, and its clients display that body; Berth's errors are RFC 9457 problem details whose
 * {@code detail} is the same text. Content negotiation picks one: the problem JSON for clients that accept JSON
 * ({@code application/problem+json}, {@code application/json}) or send no {@code Accept} at all, the plain Nomad text
 * for clients that ask for {@code text/plain}, and for Nomad's own API clients, which send no {@code Accept}: Go's
 * HTTP client (the {@code nomad} CLI and Go {@code api} package: {@code Go-http-client/…}) and Apache HttpClient
 * (HashiCorp's Java SDK: {@code Apache-HttpClient/…}).
 */
@Configuration(proxyBeanMethods = false)
class NomadErrorText implements WebMvcConfigurer {

    private static final List<String> NOMAD_CLIENT_AGENTS = List.of("Go-http-client/", "Apache-HttpClient/");

    @Override
    public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
        converters.addFirst(new PlainProblemConverter());
    }

    /** Whether {@code request} gets errors as Nomad's plain text. */
    static boolean wantsNomadText(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        if (accept == null || accept.isBlank() || "*/*".equals(accept.strip())) {
            String agent = request.getHeader("User-Agent");
            return agent != null && NOMAD_CLIENT_AGENTS.stream().anyMatch(agent::startsWith);
        }
        try {
            for (MediaType type : MediaType.parseMediaTypes(accept)) {
                if (type.isCompatibleWith(MediaType.APPLICATION_JSON) && !type.isWildcardType()
                        || type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON) && !type.isWildcardType()) {
                    return false;
                }
                if (MediaType.TEXT_PLAIN.equalsTypeAndSubtype(type)) {
                    return true;
                }
            }
        } catch (RuntimeException e) {
            return false;
        }
        return false;
    }

    /** Writes a {@link ProblemDetail} as its detail in {@code text/plain}, for requests that want Nomad's text. */
    static final class PlainProblemConverter extends AbstractHttpMessageConverter<ProblemDetail> {

        PlainProblemConverter() {
            super(StandardCharsets.UTF_8, MediaType.TEXT_PLAIN);
        }

        @Override
        protected boolean supports(Class<?> clazz) {
            return ProblemDetail.class.isAssignableFrom(clazz);
        }

        @Override
        public boolean canWrite(Class<?> clazz, MediaType mediaType) {
            return super.canWrite(clazz, mediaType) && currentWantsText();
        }

        @Override
        public List<MediaType> getSupportedMediaTypes(Class<?> clazz) {
            return supports(clazz) && currentWantsText() ? List.of(MediaType.TEXT_PLAIN) : List.of();
        }

        @Override
        protected boolean canRead(MediaType mediaType) {
            return false;
        }

        private static boolean currentWantsText() {
            return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attrs
                    && wantsNomadText(attrs.getRequest());
        }

        @Override
        protected ProblemDetail readInternal(Class<? extends ProblemDetail> clazz, HttpInputMessage inputMessage) {
            throw new HttpMessageNotReadableException("not readable", inputMessage);
        }

        @Override
        protected void writeInternal(ProblemDetail problem, HttpOutputMessage out) throws IOException {
            String text = problem.getDetail() != null ? problem.getDetail() : problem.getTitle();
            out.getBody().write((text == null ? "" : text).getBytes(StandardCharsets.UTF_8));
        }
    }
}
