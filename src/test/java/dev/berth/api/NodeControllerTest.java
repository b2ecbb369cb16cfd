package dev.berth.api;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceInstance;
import dev.berth.fingerprint.DriverInfo;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeResources;
import dev.berth.fingerprint.TestNodes;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /v1/node/:id}: Nomad's Node JSON with exact field names. */
@WebMvcTest(NodeController.class)
@Import(NodeControllerTest.Nodes.class)
class NodeControllerTest {

    static final Instant DRIVER_TIME = Instant.parse("2026-11-22T00:00:01.123456789Z");

    @TestConfiguration
    static class Nodes {
        @Bean
        dev.berth.events.BlockingQueries blockingQueries() {
            return new dev.berth.events.BlockingQueries(dev.berth.alloc.AllocChanges.standalone(Clock.systemUTC()).feed());
        }

        @Bean
        NodeRegistry nodeRegistry() {
            NodeRegistry registry = TestNodes.registry(Clock.fixed(TestNodes.T0, ZoneOffset.UTC));
            registry.update(n -> n
                    .withAttributes(Map.of("cpu.numcores", "2", "driver.mock_driver", "1"))
                    .withResources(n.resources().withCpu(new NodeResources.Cpu(6590, 2, List.of(0, 1)))
                            .withMemory(new NodeResources.Memory(24105)).withDisk(new NodeResources.Disk(80574))
                            .withDevices(List.of(new DeviceGroup("nvidia", "gpu", "Tesla T4", null, List.of(
                                    new DeviceInstance("GPU-1", true, "", new DeviceInstance.Locality("00000000:3B:00.0")),
                                    new DeviceInstance("GPU-2", false, "XID 79", null))))))
                    .withDriver("mock_driver", new DriverInfo(Map.of("driver.mock_driver", "true"), true, true, "Healthy",
                            DRIVER_TIME)));
            registry.markReady();
            return registry;
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Autowired
    NodeRegistry registry;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(MvcTestResult result) throws Exception {
        return JsonMapper.builder().build().readValue(result.getResponse().getContentAsString(), Map.class);
    }

    @Test
    void selfHasNomadsNodeFieldNames() throws Exception {
        MvcTestResult result = mvc.get().uri("/v1/node/self").exchange();

        assertThat(result).hasStatusOk();
        Map<String, Object> node = json(result);
        assertThat(node.keySet()).containsExactly("ID", "SecretID", "Datacenter", "Name", "CgroupParent", "HTTPAddr",
                "TLSEnabled", "Attributes", "NodeResources", "ReservedResources", "Links", "Meta", "NodeClass", "NodePool",
                "ComputedClass", "DrainStrategy", "SchedulingEligibility", "Status", "StatusDescription",
                "StatusUpdatedAt", "Events", "Drivers", "CSIControllerPlugins", "CSINodePlugins", "HostVolumes",
                "HostNetworks", "LastDrain", "NodeMaxAllocs", "CreateIndex", "ModifyIndex");
        assertThat(node).containsEntry("ID", registry.current().id())
                .containsEntry("SecretID", "")
                .containsEntry("Status", "ready")
                .containsEntry("SchedulingEligibility", "eligible")
                .containsEntry("StatusUpdatedAt", (int) TestNodes.T0.getEpochSecond())
                .containsEntry("Links", null)
                .containsEntry("Meta", null)
                .containsEntry("CSINodePlugins", null);

        Map<String, Object> resources = (Map<String, Object>) node.get("NodeResources");
        assertThat(resources.keySet()).containsExactly("Cpu", "Memory", "Disk", "Devices", "NodeNetworks", "Networks",
                "MinDynamicPort", "MaxDynamicPort");
        assertThat(resources).containsEntry("Cpu", Map.of("CpuShares", 6590, "TotalCpuCores", 2, "ReservableCpuCores", List.of(0, 1)))
                .containsEntry("Memory", Map.of("MemoryMB", 24105))
                .containsEntry("Disk", Map.of("DiskMB", 80574))
                .containsEntry("MinDynamicPort", 20000)
                .containsEntry("MaxDynamicPort", 32000);
        List<Map<String, Object>> devices = (List<Map<String, Object>>) resources.get("Devices");
        assertThat(devices.getFirst().keySet()).containsExactly("Vendor", "Type", "Name", "Attributes", "Instances");
        assertThat(devices.getFirst()).containsEntry("Name", "Tesla T4").containsEntry("Attributes", null);
        List<Map<String, Object>> instances = (List<Map<String, Object>>) devices.getFirst().get("Instances");
        assertThat(instances.getFirst()).isEqualTo(Map.of("ID", "GPU-1", "Healthy", true, "HealthDescription", "",
                "Locality", Map.of("PciBusID", "00000000:3B:00.0")));
        assertThat(instances.get(1)).containsEntry("Healthy", false).containsEntry("HealthDescription", "XID 79")
                .containsEntry("Locality", null);
        assertThat((Map<String, Object>) node.get("ReservedResources")).containsOnlyKeys("Cpu", "Memory", "Disk", "Networks");

        Map<String, Object> driver = (Map<String, Object>) ((Map<String, Object>) node.get("Drivers")).get("mock_driver");
        assertThat(driver.keySet()).containsExactly("Attributes", "Detected", "Healthy", "HealthDescription", "UpdateTime");
        assertThat(driver).containsEntry("UpdateTime", "2026-11-22T00:00:01.123456789Z")
                .containsEntry("Attributes", Map.of("driver.mock_driver", "true"));
        assertThat((Map<String, Object>) node.get("Attributes")).containsEntry("driver.mock_driver", "1");

        List<Map<String, Object>> events = (List<Map<String, Object>>) node.get("Events");
        assertThat(events.getFirst().keySet()).containsExactly("Message", "Subsystem", "Details", "Timestamp", "CreateIndex");
        assertThat(events.getFirst()).containsEntry("Message", "Node registered").containsEntry("Subsystem", "Cluster")
                .containsEntry("Details", null).containsEntry("Timestamp", "2026-11-22T00:00:00Z");
    }

    @Test
    void ownIdAnswersLikeSelf() throws Exception {
        MvcTestResult result = mvc.get().uri("/v1/node/" + registry.current().id()).exchange();

        assertThat(result).hasStatusOk();
        assertThat(json(result)).containsEntry("ID", registry.current().id());
    }

    @Test
    void anyOtherIdIsNotFoundAsProblemDetail() throws Exception {
        MvcTestResult result = mvc.get().uri("/v1/node/8d3f0a52-1111-4222-8333-944444444444").exchange();

        assertThat(result).hasStatus(HttpStatus.NOT_FOUND).hasContentType("application/problem+json");
        assertThat(json(result)).containsEntry("detail", "node not found").containsEntry("status", 404);
    }
}
