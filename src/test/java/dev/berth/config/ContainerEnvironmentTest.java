package dev.berth.config;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.berth.config.BerthProperties.TokenScope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The environment variables that docker/Dockerfile and the Helm chart set (SERVER_ADDRESS, BERTH_ACL_*) bind to
 * the properties the ACL policy reads, through Boot's real system-environment property source.
 */
class ContainerEnvironmentTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(BerthProperties.class)
    @Import(AclConfiguration.class)
    static class BerthConfig {
    }

    private static ConfigurableApplicationContext start(Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        return new SpringApplicationBuilder(BerthConfig.class).web(WebApplicationType.NONE).logStartupInfo(false)
                .environment(environment).run();
    }

    private static Map<String, Object> imageDefaults() {
        Map<String, Object> variables = new HashMap<>();
        variables.put("SERVER_ADDRESS", "0.0.0.0");
        variables.put("BERTH_ACL_ENABLED", "true");
        return variables;
    }

    @Test
    void imageWithAWriteTokenStartsAndAcceptsIt() {
        Map<String, Object> variables = imageDefaults();
        variables.put("BERTH_ACL_TOKENS_0_NAME", "helm");
        variables.put("BERTH_ACL_TOKENS_0_SECRET", "from-the-secret");
        variables.put("BERTH_ACL_TOKENS_0_SCOPE", "write");
        variables.put("BERTH_ACL_TOKENS_1_SECRET", "reader");

        try (ConfigurableApplicationContext context = start(variables)) {
            AclPolicy policy = context.getBean(AclPolicy.class);
            assertThat(policy.authorize("from-the-secret", TokenScope.WRITE)).isEqualTo(new AclDecision.Allowed("helm"));
            // scope defaults to read
            assertThat(policy.authorize("reader", TokenScope.WRITE)).isInstanceOf(AclDecision.Denied.class);
            assertThat(policy.authorize("reader", TokenScope.READ)).isInstanceOf(AclDecision.Allowed.class);
        }
    }

    @Test
    void imageWithoutATokenRefusesToStart() {
        assertThatThrownBy(() -> start(imageDefaults()).close())
                .hasRootCauseInstanceOf(InsecureConfigurationException.class)
                .rootCause().hasMessageContaining("no token is configured");
    }
}
