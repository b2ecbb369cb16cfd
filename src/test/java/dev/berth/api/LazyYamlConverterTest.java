package dev.berth.api;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;
import org.springframework.http.converter.GenericHttpMessageConverter;
import org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter;
import org.springframework.mock.http.MockHttpInputMessage;
import org.springframework.mock.http.MockHttpOutputMessage;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The YAML converter and the form-content filter are created only by a request that needs them, and then behave as
 * Spring's own.
 */
@SuppressWarnings({"deprecation", "removal"})
class LazyYamlConverterTest {

    private final AtomicInteger created = new AtomicInteger();
    private final LazyYamlConverter lazy = new LazyYamlConverter(() -> {
        created.incrementAndGet();
        return new MappingJackson2YamlHttpMessageConverter();
    });

    @Test
    void otherMediaTypesNeverCreateTheConverter() {
        assertThat(lazy.canWrite(Map.class, null)).isTrue();
        assertThat(lazy.canWrite(Map.class, MediaType.APPLICATION_JSON)).isFalse();
        assertThat(lazy.canWrite(Map.class, Map.class, MediaType.APPLICATION_OCTET_STREAM)).isFalse();
        assertThat(lazy.canRead(Map.class, MediaType.APPLICATION_JSON)).isFalse();
        assertThat(lazy.canRead(Map.class, null, MediaType.TEXT_PLAIN)).isFalse();
        assertThat(lazy.getSupportedMediaTypes()).containsExactly(MediaType.APPLICATION_YAML);
        assertThat(lazy.getSupportedMediaTypes(Map.class))
                .isEqualTo(new MappingJackson2YamlHttpMessageConverter().getSupportedMediaTypes(Map.class));
        assertThat(created).hasValue(0);
        assertThat(lazy.created()).isFalse();
    }

    @Test
    void yamlIsWrittenAndReadAsSpringsConverterDoes() throws Exception {
        assertThat(lazy.canWrite(Map.class, MediaType.APPLICATION_YAML)).isTrue();
        Map<String, Object> value = Map.of("ok", true, "message", "ok");
        MockHttpOutputMessage ours = new MockHttpOutputMessage();
        lazy.write(value, Map.class, MediaType.APPLICATION_YAML, ours);
        MockHttpOutputMessage springs = new MockHttpOutputMessage();
        GenericHttpMessageConverter<Object> reference = new MappingJackson2YamlHttpMessageConverter();
        reference.write(value, Map.class, MediaType.APPLICATION_YAML, springs);
        assertThat(ours.getBodyAsString()).isEqualTo(springs.getBodyAsString()).contains("message: \"ok\"");
        assertThat(ours.getHeaders().getContentType()).isEqualTo(springs.getHeaders().getContentType());

        MockHttpInputMessage input = new MockHttpInputMessage("a: 1\n".getBytes(StandardCharsets.UTF_8));
        input.getHeaders().setContentType(MediaType.APPLICATION_YAML);
        assertThat(lazy.canRead(Map.class, MediaType.APPLICATION_YAML)).isTrue();
        assertThat(lazy.read(Map.class, input)).isEqualTo(Map.of("a", 1));
        assertThat(created).hasValue(1);
    }

    @Test
    void theFormFilterIsCreatedByTheFirstFormBodyOnly() throws Exception {
        LazyFormContentFilter filter = new LazyFormContentFilter();
        MockHttpServletRequest json = new MockHttpServletRequest("PUT", "/v1/x");
        json.setContentType("application/json");
        json.setContent("{}".getBytes(StandardCharsets.UTF_8));
        MockFilterChain jsonChain = new MockFilterChain();
        filter.doFilter(json, new MockHttpServletResponse(), jsonChain);
        assertThat(jsonChain.getRequest()).isSameAs(json);
        assertThat(filter.created()).isFalse();

        MockHttpServletRequest form = new MockHttpServletRequest("PUT", "/v1/x");
        form.setContentType("application/x-www-form-urlencoded");
        form.setContent("name=web&count=2".getBytes(StandardCharsets.UTF_8));
        MockFilterChain formChain = new MockFilterChain();
        filter.doFilter(form, new MockHttpServletResponse(), formChain);
        assertThat(filter.created()).isTrue();
        assertThat(formChain.getRequest().getParameter("name")).isEqualTo("web");
        assertThat(formChain.getRequest().getParameter("count")).isEqualTo("2");
    }
}
