package dev.berth.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code alloc exec} ({@code berth.exec.*}).
 *
 * @param enabled whether {@code /v1/client/allocation/{id}/exec} runs commands; off, every session is refused as Nomad's
 *                {@code disable_remote_exec} refuses it (websocket close 1011 {@code Permission denied})
 */
@ConfigurationProperties("berth.exec")
public record ExecProperties(@DefaultValue("true") boolean enabled) {
}
