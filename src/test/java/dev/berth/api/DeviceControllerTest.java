package dev.berth.api;

import java.time.Duration;
import java.util.List;

import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceManager;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceRequest;
import dev.berth.device.DeviceReservationStore;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.device.DevicePlugin;
import dev.berth.device.PeriodicStream;
import dev.berth.device.Reservation;
import dev.berth.config.Sleeper;
import dev.berth.device.TaskRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WebMvcTest(DeviceController.class)
class DeviceControllerTest {

    /** A plugin with one fixed GPU group; stands for real hardware. */
    static final class OneGpu implements DevicePlugin {

        @Override
        public String name() {
            return "one-gpu";
        }

        @Override
        public dev.berth.device.DeviceStream<List<DeviceGroup>> fingerprint() {
            return PeriodicStream.start("one-gpu", Duration.ofHours(1), Sleeper.system(), true,
                    () -> List.of(new DeviceGroup("nvidia", "gpu", "T4", null, List.of(DeviceInstance.healthy("GPU-1", "0000:01:00.0"),
                            DeviceInstance.healthy("GPU-2", null)))));
        }

        @Override
        public dev.berth.device.DeviceStream<List<dev.berth.device.DeviceGroupStats>> stats(Duration interval) {
            return PeriodicStream.start("one-gpu-stats", interval, Sleeper.system(), false, List::of);
        }

        @Override
        public Reservation reserve(List<String> ids) {
            return Reservation.EMPTY;
        }
    }

    /** Stands for the H2 store. */
    static final class NoStore implements DeviceReservationStore {

        @Override
        public List<Held> loadAll() {
            return List.of();
        }

        @Override
        public void saveAll(List<Held> held) {
        }

        @Override
        public void deleteAlloc(String allocId) {
        }
    }

    @TestConfiguration
    static class Devices {

        @Bean
        DeviceManager deviceManager() {
            DeviceProperties properties = new DeviceProperties(Duration.ofSeconds(5), Duration.ofSeconds(5),
                    new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                    new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
            return new DeviceManager(List.of(new OneGpu()), properties, Sleeper.system(), new DeviceStatsIndex(), List.of());
        }

        @Bean
        DeviceAllocator deviceAllocator(DeviceManager manager) {
            return new DeviceAllocator(manager, new NoStore());
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Autowired
    DeviceManager manager;

    @Autowired
    DeviceAllocator allocator;

    @AfterEach
    void release() {
        allocator.release("a1");
    }

    @Test
    void listsDevicesInNodeResourcesShape() {
        await().until(() -> !manager.devices().isEmpty());
        assertThat(mvc.get().uri("/v1/client/devices")).hasStatusOk().bodyJson().isStrictlyEqualTo("""
                [{"Vendor":"nvidia","Type":"gpu","Name":"T4","Attributes":null,"Instances":[
                  {"ID":"GPU-1","Healthy":true,"HealthDescription":"","Locality":{"PciBusID":"0000:01:00.0"}},
                  {"ID":"GPU-2","Healthy":true,"HealthDescription":"","Locality":null}]}]""");
    }

    @Test
    void listsWhoHoldsWhichInstance() throws Exception {
        await().until(() -> !manager.devices().isEmpty());
        allocator.allocate(new TaskRef("a1", "train", "trainer"), List.of(new DeviceRequest("gpu", 1)));
        assertThat(mvc.get().uri("/v1/client/devices/reservations")).hasStatusOk().bodyJson().isStrictlyEqualTo("""
                [{"ID":"GPU-1","Vendor":"nvidia","Type":"gpu","Name":"T4","AllocID":"a1","JobID":"train","Task":"trainer",
                 "Healthy":true,"HealthDescription":""}]""");
    }
}
