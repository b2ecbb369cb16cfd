package dev.berth.device;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A typed device attribute (Nomad {@code plugins/shared/structs/attribute.go}): exactly one of the value fields is
 * set; {@code Unit} is only allowed with an int or float value and must be a {@link DeviceUnits known unit}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Attribute(
        @JsonProperty("Float") Double floatVal,
        @JsonProperty("Int") Long intVal,
        @JsonProperty("String") String stringVal,
        @JsonProperty("Bool") Boolean boolVal,
        @JsonProperty("Unit") String unit) {

    public static Attribute ofInt(long value, String unit) {
        return new Attribute(null, value, null, null, unit);
    }

    public static Attribute ofFloat(double value, String unit) {
        return new Attribute(value, null, null, null, unit);
    }

    public static Attribute ofString(String value) {
        return new Attribute(null, null, value, null, null);
    }

    public static Attribute ofBool(boolean value) {
        return new Attribute(null, null, null, value, null);
    }

    /** Why this attribute is invalid, or null when it is valid. */
    public String problem() {
        int set = (floatVal != null ? 1 : 0) + (intVal != null ? 1 : 0) + (stringVal != null ? 1 : 0) + (boolVal != null ? 1 : 0);
        if (set != 1) {
            return "exactly one of Float, Int, String, Bool must be set";
        }
        if (unit != null && !unit.isEmpty()) {
            if (floatVal == null && intVal == null) {
                return "unit can only be specified on an integer or float value";
            }
            if (!DeviceUnits.isKnown(unit)) {
                return "unknown unit \"" + unit + "\"";
            }
        }
        return null;
    }
}
