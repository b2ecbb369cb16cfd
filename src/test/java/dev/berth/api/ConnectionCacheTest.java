package dev.berth.api;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;

import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** Tomcat keeps two request processors and two connection channels for reuse after a burst, not 200 / 500. */
@AgentIntegrationTest
class ConnectionCacheTest {

    @Autowired
    ServletWebServerApplicationContext context;

    @Test
    void tomcatKeepsTwoProcessorsAndTwoConnectionChannelsForReuse() {
        Connector connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();

        assertThat(((AbstractProtocol<?>) connector.getProtocolHandler()).getProcessorCache()).isEqualTo(2);
        assertThat(String.valueOf(connector.getProperty("socket.bufferPool"))).isEqualTo("2");
    }
}
