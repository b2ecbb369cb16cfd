package dev.berth.api;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * HTTP API input limits ({@code berth.api.*}).
 *
 * @param maxRequestBodySize largest request body accepted by a {@code PUT}/{@code POST} under {@code /v1/}; a larger
 *                           one is refused with 413 before anything is decoded or stored
 */
@Validated
@ConfigurationProperties("berth.api")
public record ApiProperties(@DefaultValue("10MB") @NotNull DataSize maxRequestBodySize) {

    public ApiProperties {
        if (maxRequestBodySize == null || maxRequestBodySize.toBytes() <= 0) {
            throw new IllegalArgumentException("'berth.api.max-request-body-size' must be positive, was " + maxRequestBodySize);
        }
    }
}
