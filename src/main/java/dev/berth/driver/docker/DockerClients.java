package dev.berth.driver.docker;

import java.time.Duration;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

/**
 * Creates docker-java clients. The API version is left unset, so requests use unversioned paths and the engine
 * answers in its own version: that works with Engine 20.10 (API 1.41) and with engines whose minimum is 1.44.
 */
public final class DockerClients {

    private DockerClients() {
    }

    /**
     * A client for {@code host}. {@code responseTimeout} null means no timeout, which long calls need (wait, followed
     * logs); health pings use a short one so a hung engine cannot hang the fingerprint. The timeout bounds the wait for
     * the answer's headers, on unix sockets too.
     */
    public static DockerClient create(String host, Duration connectTimeout, Duration responseTimeout) {
        DefaultDockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(host)
                .withDockerTlsVerify(false)
                .build();
        ApacheDockerHttpClient.Builder http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .maxConnections(256)
                .connectionTimeout(connectTimeout);
        if (responseTimeout == null) {
            return DockerClientImpl.getInstance(config, http.build());
        }
        http.responseTimeout(responseTimeout);
        // the transport's own timeout does not hold on unix sockets (see BoundedHttpClient)
        return DockerClientImpl.getInstance(config, new BoundedHttpClient(http.build(), responseTimeout));
    }
}
