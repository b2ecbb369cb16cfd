package dev.berth.driver.mock;

import java.time.Clock;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthProperties;
import dev.berth.config.Sleeper;

/** Registers the mock_driver; it reports itself undetected unless {@code berth.drivers.mock.enabled=true}. */
@Configuration(proxyBeanMethods = false)
class MockDriverConfiguration {

    @Bean
    MockDriver mockDriver(BerthProperties properties, Clock clock) {
        // Timer callbacks are tiny (complete a future, append a line); virtual threads keep them off platform threads.
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                Thread.ofVirtual().name("mock-driver-", 0).factory());
        scheduler.setRemoveOnCancelPolicy(true);
        return new MockDriver(properties.drivers().mock().enabled(), clock, scheduler, Sleeper.system());
    }
}
