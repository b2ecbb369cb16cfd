package dev.berth.api;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JSON scalars in request bodies are bound only to their own type, as Go's decoder (Nomad's) does. A wrong type fails
 * decoding, which {@link BodyProblems} answers with a 400 naming the field.
 */
@Configuration(proxyBeanMethods = false)
class StrictJsonConfiguration {

    /**
     * Jackson by default turns {@code 5} and {@code true} into the strings {@code "5"} and {@code "true"}, {@code "5"} into
     * the number 5, {@code 1.5} into the int 1, {@code 1} into {@code true} and {@code ""} into null. Go refuses all of
     * these, so a {@code "TaskName":5} that Nomad answers with 400 became a 404 "task not found" here, and
     * {@code "Env":{"A":5}} was stored. Coercion settings only affect reading: responses are written exactly as before.
     * A number into a floating-point field stays accepted, as in Go; {@code null} stays "unset". In the other direction,
     * Jackson 3 refused a missing or {@code null} value for a primitive ({@code "Ports":[{"Label":"http","Value":25000}]}
     * without {@code To}) where Go leaves the zero value: that is accepted now, as 0.
     */
    @Bean
    JsonMapperBuilderCustomizer strictScalarBinding() {
        return StrictJsonConfiguration::strictScalars;
    }

    static void strictScalars(JsonMapper.Builder builder) {
        builder.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .withCoercionConfig(LogicalType.Textual, c -> c
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Integer, c -> c
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                        .setAcceptBlankAsEmpty(false))
                .withCoercionConfig(LogicalType.Float, c -> c
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                        .setAcceptBlankAsEmpty(false))
                .withCoercionConfig(LogicalType.Boolean, c -> c
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setAcceptBlankAsEmpty(false));
    }
}
