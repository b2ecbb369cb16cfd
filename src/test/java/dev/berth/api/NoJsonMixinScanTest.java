package dev.berth.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.JacksonMixinModuleEntries;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import tools.jackson.databind.json.JsonMapper;

/** The {@code @JacksonMixin} scan is replaced by an empty set of mixins; Jackson is configured as before otherwise. */
class NoJsonMixinScanTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
            // the package Spring Boot would scan holds a @JacksonMixin
            .withInitializer(context -> AutoConfigurationPackages.register(
                    (BeanDefinitionRegistry) context.getBeanFactory(), "dev.berth.api.mixinprobe"));

    @Test
    void withoutItBootScansThePackagesAndFindsTheMixin() {
        runner.run(context -> assertThat(mixins(context.getBean(JacksonMixinModuleEntries.class))).isEqualTo(1));
    }

    @Test
    void withItNoScanRunsAndTheMapperIsStillBuilt() {
        runner.withUserConfiguration(NoJsonMixinScan.class).run(context -> {
            assertThat(mixins(context.getBean(JacksonMixinModuleEntries.class))).isZero();
            assertThat(context.getBean(JsonMapper.class).writeValueAsString(java.util.Map.of("a", 1))).isEqualTo("{\"a\":1}");
        });
    }

    private static int mixins(JacksonMixinModuleEntries entries) {
        AtomicInteger count = new AtomicInteger();
        entries.doWithEntry(NoJsonMixinScanTest.class.getClassLoader(), (target, mixin) -> count.incrementAndGet());
        return count.get();
    }
}
