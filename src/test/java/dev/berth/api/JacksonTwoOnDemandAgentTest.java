package dev.berth.api;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.web.filter.FormContentFilter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent as configured builds no Jackson 2 mapper at start: Spring's YAML converter is registered as
 * {@link YamlOnFirstUse} (not built until a YAML request), Boot's form-content filter and its Jackson 2 actuator mapper
 * are not there.
 */
@AgentIntegrationTest
class JacksonTwoOnDemandAgentTest {

    @Autowired
    ApplicationContext context;

    @Autowired
    RequestMappingHandlerAdapter handlerAdapter;

    @Test
    void theMvcConvertersHoldTheYamlConverterThatIsBuiltOnFirstUse() {
        assertThat(handlerAdapter.getMessageConverters())
                .filteredOn(YamlOnFirstUse.Converter.class::isInstance)
                .hasSize(1);
        assertThat(handlerAdapter.getMessageConverters())
                .noneMatch(converter -> converter.getClass().getName().contains("Jackson2"));
    }

    @Test
    void noFormContentFilterAndNoJackson2ActuatorMapper() {
        assertThat(context.getBeanNamesForType(FormContentFilter.class)).isEmpty();
        assertThat(Arrays.stream(context.getBeanDefinitionNames()).map(name -> context.getType(name)))
                .noneMatch(type -> type != null && type.getName().startsWith("com.fasterxml.jackson"))
                .noneMatch(type -> type != null && type.getName().contains("Jackson2ObjectMapper"));
    }
}
