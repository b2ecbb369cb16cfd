package dev.berth.config;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code logging.structured.format.console=ecs} (documented in docs/deployment.md) makes every log line JSON. */
@ExtendWith(OutputCaptureExtension.class)
class StructuredLoggingTest {

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }

    @Test
    void ecsFormatWritesOneJsonObjectPerLine(CapturedOutput output) {
        // A cached test context elsewhere in this JVM leaves Logback marked initialized, and Boot then skips
        // configuring logging for this application; clear the mark so the ecs format is really applied.
        LoggingSystem.get(getClass().getClassLoader()).cleanUp();
        try (ConfigurableApplicationContext ignored = new SpringApplicationBuilder(Empty.class)
                .web(WebApplicationType.NONE)
                .run("--logging.structured.format.console=ecs", "--spring.main.banner-mode=off")) {
            // started: the start-up lines were logged
        }

        List<String> lines = output.getOut().lines().filter(line -> !line.isBlank()).toList();
        assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line).startsWith("{").endsWith("}"));
        JsonMapper mapper = JsonMapper.builder().build();
        List<JsonNode> events = lines.stream().map(mapper::readTree).toList();
        assertThat(events).allSatisfy(event -> {
            assertThat(event.has("@timestamp")).isTrue();
            assertThat(event.path("log").path("level").asString()).isNotEmpty();
        });
        assertThat(events).anySatisfy(event -> assertThat(event.path("message").asString()).startsWith("Started "));
    }
}
