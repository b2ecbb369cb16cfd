package dev.berth.api;

import java.time.Duration;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * Serves {@code /v1/client/allocation/{id}/exec} as a websocket ({@link ExecSocketHandler}). Browsers may only open it
 * from the agent's own origin (Spring's default origin check: a page elsewhere cannot drive a shell through a
 * visitor's browser); Nomad's CLI and API clients send no {@code Origin} and are not affected. Only in a servlet web
 * application (an agent started without a web server has no websocket container).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableWebSocket
class ExecWebSocketConfiguration implements WebSocketConfigurer {

    static final String PATH = "/v1/client/allocation/*/exec";

    private final ExecSocketHandler handler;

    ExecWebSocketConfiguration(ExecSocketHandler handler) {
        this.handler = handler;
    }

    /**
     * Frames up to 64 KiB (Tomcat's default is 8 KiB; Nomad's CLI sends 2 KiB of stdin per frame, base64-encoded), and a
     * session idle for 5 minutes is closed (Nomad's clients send a heartbeat frame every 10 s), which kills its command.
     */
    @Bean
    ServletServerContainerFactoryBean webSocketContainer() {
        ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(64 * 1024);
        container.setMaxBinaryMessageBufferSize(64 * 1024);
        container.setMaxSessionIdleTimeout(Duration.ofMinutes(5).toMillis());
        return container;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(handler, PATH);
    }
}
