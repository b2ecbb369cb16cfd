package dev.berth.device;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The wire shapes: Nomad's field names, and zero versus unset in {@link StatValue}. */
class DeviceJsonTest {

    // like the agent's own mapper: properties are always included unless a type says otherwise
    private final JsonMapper json = JsonMapper.builder()
            .changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS))
            .build();

    @Test
    void zeroAndFalseAreWrittenButUnsetFieldsAreLeftOut() {
        assertThat(json.writeValueAsString(StatValue.ofInt(0, "", ""))).isEqualTo("{\"IntNumeratorVal\":0}");
        assertThat(json.writeValueAsString(StatValue.ofBool(false, ""))).isEqualTo("{\"BoolVal\":false}");
        assertThat(json.writeValueAsString(StatValue.ofFloatFraction(0.0, 16.0, "GiB", "used")))
                .isEqualTo("{\"FloatNumeratorVal\":0.0,\"FloatDenominatorVal\":16.0,\"Unit\":\"GiB\",\"Desc\":\"used\"}");
        assertThat(json.writeValueAsString(new StatValue(null, null, null, null, null, null, null, null))).isEqualTo("{}");
    }

    @Test
    void statValuesRoundTripKeepingZeroDistinctFromUnset() {
        StatValue zero = StatValue.ofIntFraction(0, 0, "MiB", "");
        StatValue read = json.readValue(json.writeValueAsString(zero), StatValue.class);
        assertThat(read.intNumeratorVal()).isZero();
        assertThat(read.intDenominatorVal()).isZero();
        assertThat(read.floatNumeratorVal()).isNull();
        assertThat(read.boolVal()).isNull();
    }

    @Test
    void nodeDevicesUseNomadsNames() {
        DeviceGroup group = new DeviceGroup("nvidia", "gpu", "T4", Map.of("memory", Attribute.ofInt(16, "GiB")),
                List.of(DeviceInstance.healthy("GPU-1", "00000000:00:1E.0")));
        assertThat(json.writeValueAsString(group)).isEqualTo("{\"Vendor\":\"nvidia\",\"Type\":\"gpu\",\"Name\":\"T4\","
                + "\"Attributes\":{\"memory\":{\"Int\":16,\"Unit\":\"GiB\"}},"
                + "\"Instances\":[{\"ID\":\"GPU-1\",\"Healthy\":true,\"HealthDescription\":\"\",\"Locality\":{\"PciBusID\":\"00000000:00:1E.0\"}}]}");
        assertThat(json.writeValueAsString(new DeviceGroup("v", "t", "n", null, List.of()))).contains("\"Attributes\":null");
    }

    @Test
    void deviceGroupStatsUseNomadsNamesAndAnRfc3339Timestamp() {
        DeviceGroupStats stats = DeviceGroupStats.of(new DeviceGroupKey("nvidia", "gpu", "T4"), Map.of("GPU-1",
                new DeviceStats(StatValue.ofIntFraction(1, 2, "MiB", ""), StatObject.of(Map.of("Temperature", StatValue.ofInt(40, "C", ""))),
                        Instant.parse("2026-11-22T00:00:00.5Z"))));
        assertThat(json.writeValueAsString(stats)).isEqualTo("{\"Vendor\":\"nvidia\",\"Type\":\"gpu\",\"Name\":\"T4\",\"InstanceStats\":{"
                + "\"GPU-1\":{\"Summary\":{\"IntNumeratorVal\":1,\"IntDenominatorVal\":2,\"Unit\":\"MiB\"},"
                + "\"Stats\":{\"Nested\":null,\"Attributes\":{\"Temperature\":{\"IntNumeratorVal\":40,\"Unit\":\"C\"}}},"
                + "\"Timestamp\":\"2026-11-22T00:00:00.500Z\"}}}");
    }

    @Test
    void deviceRequestsAndAllocatedDevicesUseNomadsShapes() {
        DeviceRequest request = json.readValue("{\"Name\":\"nvidia/gpu\",\"Count\":2,\"Constraints\":null,\"Affinities\":[]}",
                DeviceRequest.class);
        assertThat(request).isEqualTo(new DeviceRequest("nvidia/gpu", 2));
        assertThat(json.readValue("{\"Name\":\"gpu\"}", DeviceRequest.class).count()).isEqualTo(1);

        AllocatedDevice allocated = new AllocatedDevice(new DeviceGroupKey("nvidia", "gpu", "T4"), List.of("GPU-1"));
        String text = json.writeValueAsString(allocated);
        assertThat(text).isEqualTo("{\"Vendor\":\"nvidia\",\"Type\":\"gpu\",\"Name\":\"T4\",\"DeviceIDs\":[\"GPU-1\"]}");
        assertThat(json.readValue(text, AllocatedDevice.class)).isEqualTo(allocated);
    }

    @Test
    void reservationsUseNomadsNames() {
        Reservation reservation = new Reservation(Map.of("A", "1"), List.of(new Reservation.Mount("/t", "/h", true)),
                List.of(new Reservation.DeviceSpec("/dev/x", "/dev/y", "rwm")));
        assertThat(json.writeValueAsString(reservation)).isEqualTo("{\"Envs\":{\"A\":\"1\"},"
                + "\"Mounts\":[{\"TaskPath\":\"/t\",\"HostPath\":\"/h\",\"ReadOnly\":true}],"
                + "\"Devices\":[{\"TaskPath\":\"/dev/x\",\"HostPath\":\"/dev/y\",\"CgroupPerms\":\"rwm\"}]}");
    }
}
