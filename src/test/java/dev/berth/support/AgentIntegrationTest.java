package dev.berth.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * A full agent on a random port with its own throw-away data dir, the mock and raw_exec drivers enabled and
 * ACLs off. Every test class that uses exactly this annotation (and no extra properties) shares one cached
 * application context, which keeps the suite fast: add properties only when a test really needs other settings.
 *
 * <p>A data dir named with {@code ${random.uuid}} (here and in the other agent tests) is resolved once per context and
 * removed when the context closes ({@link ThrowawayDataDir}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.mock.enabled=true",
        "berth.drivers.raw-exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
public @interface AgentIntegrationTest {
}
