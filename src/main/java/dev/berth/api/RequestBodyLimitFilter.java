package dev.berth.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the body of a {@code PUT}/{@code POST} under {@code /v1/} ({@code berth.api.max-request-body-size}):
 * <ul>
 *   <li>a declared {@code Content-Length} over the limit is answered 413 at once, before a byte of the body is read
 *       (Tomcat then closes the connection instead of draining the rest);</li>
 *   <li>a body without a length (chunked) is counted while it is read: the read that passes the limit throws
 *       {@link RequestBodyTooLargeException}, which ends decoding and becomes a 413 in the exception handlers.</li>
 * </ul>
 * In both cases the controller never sees a decoded body, so nothing is stored.
 */
final class RequestBodyLimitFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RequestBodyLimitFilter.class);

    private final long limit;
    private final JsonMapper jsonMapper;

    RequestBodyLimitFilter(long limit, JsonMapper jsonMapper) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        this.limit = limit;
        this.jsonMapper = jsonMapper;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !("PUT".equals(request.getMethod()) || "POST".equals(request.getMethod()))
                || !request.getRequestURI().startsWith("/v1/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            log.info("Refused {} {}: Content-Length {} exceeds berth.api.max-request-body-size ({} bytes)", request.getMethod(),
                    request.getRequestURI(), declared, limit);
            refuse(request, response);
            return;
        }
        chain.doFilter(new Limited(request, limit), response);
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ProblemDetail problem = BodyProblems.tooLarge(limit);
        try {
            problem.setInstance(URI.create(request.getRequestURI()));
        } catch (IllegalArgumentException ex) {
            // not a valid URI reference: leave "instance" out rather than fail the refusal
        }
        response.setStatus(problem.getStatus());
        // The unread body must not be taken for the next request on this connection.
        response.setHeader("Connection", "close");
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        byte[] body = jsonMapper.writeValueAsBytes(problem);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The request with its body stream bounded to {@code limit} bytes. */
    static final class Limited extends HttpServletRequestWrapper {

        private final long limit;
        private LimitedInputStream stream;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new LimitedInputStream(super.getInputStream(), limit);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    /** Counts what is read and throws once more than {@code limit} bytes have come. */
    static final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream in;
        private final long limit;
        private long count;

        LimitedInputStream(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) throws RequestBodyTooLargeException {
            count += n;
            if (count > limit) {
                throw new RequestBodyTooLargeException(limit);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
