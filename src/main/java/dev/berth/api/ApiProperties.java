package dev.berth.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.berth.config.PropertyChecks;

/**
 * HTTP API input limits ({@code berth.api.*}).
 *
 * @param maxRequestBodySize largest request body accepted by a {@code PUT}/{@code POST} under {@code /v1/}; a larger
 *                           one is refused with 413 before anything is decoded or stored
 */
@ConfigurationProperties("berth.api")
public record ApiProperties(@DefaultValue("10MB") DataSize maxRequestBodySize) {

    public ApiProperties {
        PropertyChecks.positive("berth.api.max-request-body-size", maxRequestBodySize);
    }
}
