package dev.berth.api;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tomcat keeps the objects of finished requests and closed connections for reuse: up to
 * {@code server.tomcat.processor-cache} request processors (its default 200; ~65 KB each with their header and body
 * buffers) and up to {@code socket.bufferPool} connection channels (its default 500; two 8 KB buffers each). Sized for
 * a busy web server, those caches never shrink: eight parallel clients placing and destroying 1,000 allocations left
 * 9 processors and 16 channels (~0.75 MB) on the agent's heap for good, where the idle agent has one of each. The agent
 * keeps as many channels as processors ({@code server.tomcat.processor-cache}, 2 in {@code application.yml}): a request
 * beyond those allocates its own, as Tomcat does whenever its cache is empty.
 */
@Configuration(proxyBeanMethods = false)
class ConnectionCacheConfiguration {

    /** As many channels as processors ({@code server.tomcat.processor-cache}: Tomcat's default when unset). */
    @Bean
    WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> connectionChannelCache(
            @Value("${server.tomcat.processor-cache:200}") int cached) {
        return factory -> factory.addConnectorCustomizers(
                connector -> connector.setProperty("socket.bufferPool", Integer.toString(cached)));
    }
}
