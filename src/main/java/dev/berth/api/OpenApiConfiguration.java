package dev.berth.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.boot.info.BuildProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;

/**
 * The OpenAPI document's header: what Berth is, and the two ways to present an ACL token, so Swagger UI's
 * "Authorize" button sends {@code X-Nomad-Token} (or a bearer token) with every call. Not a {@code @Configuration}: only
 * the API docs' child context ({@link ApiDocsChildConfiguration}) imports it, so swagger's model classes load there.
 */
class OpenApiConfiguration {

    static final String NOMAD_TOKEN = "nomadToken";
    static final String BEARER = "bearerToken";

    @Bean
    OpenAPI berthOpenApi(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        return new OpenAPI()
                .info(new Info().title("Berth node agent API")
                        .version(properties == null ? "dev" : properties.getVersion())
                        .description("Nomad-compatible client API (/v1/client/...), allocation submission, "
                                + "node and stats endpoints. Errors are RFC 9457 problem details.")
                        .license(new License().name("see repository")))
                .components(new Components()
                        .addSecuritySchemes(NOMAD_TOKEN, new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                                .in(SecurityScheme.In.HEADER).name(AclFilter.TOKEN_HEADER)
                                .description("ACL token secret (berth.acl.tokens[*].secret)"))
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").description("The same secret as a bearer token")))
                .addSecurityItem(new SecurityRequirement().addList(NOMAD_TOKEN))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }
}
