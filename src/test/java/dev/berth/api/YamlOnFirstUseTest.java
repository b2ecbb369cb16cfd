package dev.berth.api;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.converter.GenericHttpMessageConverter;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.mock.http.MockHttpInputMessage;
import org.springframework.mock.http.MockHttpOutputMessage;

import static org.assertj.core.api.Assertions.assertThat;

/** YAML answers and bodies work as with Spring's own converter; the Jackson 2 converter is built only when needed. */
@WebMvcTest(AgentController.class)
@Import({AgentControllerTest.Nodes.class, YamlOnFirstUse.class})
class YamlOnFirstUseTest {

    @Autowired
    MockMvcTester mvc;

    @Test
    void theApiAnswersYamlWhenAskedAndJsonOtherwise() {
        MvcTestResult yaml = mvc.get().uri("/v1/agent/self").accept(MediaType.APPLICATION_YAML).exchange();
        assertThat(yaml).hasStatusOk().hasContentTypeCompatibleWith(MediaType.APPLICATION_YAML);
        assertThat(yaml).bodyText().startsWith("---").contains("config:").contains("  Datacenter: ");

        MvcTestResult json = mvc.get().uri("/v1/agent/self").exchange();
        assertThat(json).hasStatusOk().hasContentTypeCompatibleWith(MediaType.APPLICATION_JSON);
        assertThat(json).bodyText().startsWith("{");
    }

    @Test
    void mediaTypeQuestionsDoNotBuildTheConverter() {
        AtomicInteger built = new AtomicInteger();
        YamlOnFirstUse.Converter converter = counting(built);

        assertThat(converter.getSupportedMediaTypes()).containsExactly(MediaType.APPLICATION_YAML);
        assertThat(converter.canWrite(Map.class, null)).isTrue(); // content negotiation asks this on every response
        assertThat(converter.canWrite(Map.class, MediaType.APPLICATION_JSON)).isFalse();
        assertThat(converter.canRead(Map.class, MediaType.APPLICATION_JSON)).isFalse();
        assertThat(converter.canRead(Map.class, null)).isFalse();
        assertThat(built).hasValue(0);
        assertThat(converter.built()).isFalse();
    }

    @Test
    void writingAndReadingYamlBuildTheConverterOnce() throws Exception {
        AtomicInteger built = new AtomicInteger();
        YamlOnFirstUse.Converter converter = counting(built);

        assertThat(converter.canWrite(Map.class, MediaType.APPLICATION_YAML)).isTrue();
        MockHttpOutputMessage out = new MockHttpOutputMessage();
        converter.write(Map.of("ok", true), Map.class, MediaType.APPLICATION_YAML, out);
        assertThat(out.getBodyAsString(StandardCharsets.UTF_8)).contains("ok: true");

        assertThat(converter.canRead(Map.class, MediaType.APPLICATION_YAML)).isTrue();
        MockHttpInputMessage in = new MockHttpInputMessage("name: web\ncount: 2\n".getBytes(StandardCharsets.UTF_8));
        in.getHeaders().setContentType(MediaType.APPLICATION_YAML);
        assertThat(converter.read(Map.class, null, in)).isEqualTo(Map.of("name", "web", "count", 2));

        assertThat(built).hasValue(1);
        assertThat(converter.built()).isTrue();
    }

    @SuppressWarnings("removal")
    private static YamlOnFirstUse.Converter counting(AtomicInteger built) {
        return new YamlOnFirstUse.Converter(() -> {
            built.incrementAndGet();
            GenericHttpMessageConverter<Object> real =
                    new org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter();
            return real;
        });
    }
}
