package dev.berth.service.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

/** The http check clients are made on first use, one per TLS mode, and shared after that. */
class HttpClientsTest {

    @Test
    void eachClientIsMadeOnItsFirstUseAndThenShared() {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
             HttpClients clients = new HttpClients(executor)) {
            assertThat(clients.made()).isZero();

            HttpClient verifying = clients.client(false);
            assertThat(clients.made()).isEqualTo(1);
            assertThat(clients.client(false)).isSameAs(verifying);

            HttpClient insecure = clients.client(true);
            assertThat(clients.made()).isEqualTo(2);
            assertThat(insecure).isNotSameAs(verifying);
            assertThat(clients.client(true)).isSameAs(insecure);
            assertThat(insecure.sslContext()).isNotSameAs(verifying.sslContext());
        }
    }

    @Test
    void closingBeforeAnyUseMakesNothing() {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            HttpClients clients = new HttpClients(executor);
            clients.close();
            assertThat(clients.made()).isZero();
        }
    }
}
