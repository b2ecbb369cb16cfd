package dev.berth.device;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One statistic (Nomad {@code plugins/shared/structs/stats.go StatValue}). A numerator with a denominator is a
 * fraction (used/total), a numerator alone a scalar.
 *
 * <p><b>Zero and unset are different</b>: every field is boxed; a set {@code 0} or {@code false} is written,
 * an unset ({@code null}) field is left out of the JSON, exactly like Nomad's {@code omitempty} pointers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatValue(
        @JsonProperty("FloatNumeratorVal") Double floatNumeratorVal,
        @JsonProperty("FloatDenominatorVal") Double floatDenominatorVal,
        @JsonProperty("IntNumeratorVal") Long intNumeratorVal,
        @JsonProperty("IntDenominatorVal") Long intDenominatorVal,
        @JsonProperty("StringVal") String stringVal,
        @JsonProperty("BoolVal") Boolean boolVal,
        @JsonProperty("Unit") @JsonInclude(JsonInclude.Include.NON_EMPTY) String unit,
        @JsonProperty("Desc") @JsonInclude(JsonInclude.Include.NON_EMPTY) String desc) {

    /** The value used for anything a device cannot report ({@code [N/A]}, {@code [Not Supported]}). */
    public static final String NOT_AVAILABLE = "N/A";

    public static StatValue ofInt(long value, String unit, String desc) {
        return new StatValue(null, null, value, null, null, null, unit, desc);
    }

    public static StatValue ofIntFraction(long numerator, long denominator, String unit, String desc) {
        return new StatValue(null, null, numerator, denominator, null, null, unit, desc);
    }

    public static StatValue ofFloat(double value, String unit, String desc) {
        return new StatValue(value, null, null, null, null, null, unit, desc);
    }

    public static StatValue ofFloatFraction(double numerator, double denominator, String unit, String desc) {
        return new StatValue(numerator, denominator, null, null, null, null, unit, desc);
    }

    public static StatValue ofString(String value, String unit, String desc) {
        return new StatValue(null, null, null, null, value, null, unit, desc);
    }

    public static StatValue ofBool(boolean value, String desc) {
        return new StatValue(null, null, null, null, null, value, null, desc);
    }

    public static StatValue notAvailable(String unit, String desc) {
        return ofString(NOT_AVAILABLE, unit, desc);
    }

    /** The numerator as a double, or null when the value is not numeric (e.g. {@code N/A}). */
    public Double numerator() {
        return floatNumeratorVal != null ? floatNumeratorVal : intNumeratorVal != null ? Double.valueOf(intNumeratorVal) : null;
    }

    /** The denominator as a double, or null when there is none. */
    public Double denominator() {
        return floatDenominatorVal != null ? floatDenominatorVal : intDenominatorVal != null ? Double.valueOf(intDenominatorVal) : null;
    }
}
