package dev.berth.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.template.gotmpl.TemplateFunction;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code toJSON}, {@code toJSONPretty} (two-space indent, Go's {@code json.MarshalIndent} layout) and
 * {@code parseJSON} (objects become maps, arrays lists, whole numbers {@code Long}). Map keys are written sorted, as
 * Go's encoder does.
 */
final class JsonFunctions {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter(
            Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")).withObjectIndenter(new DefaultIndenter("  ", "\n"));

    private JsonFunctions() {
    }

    static Map<String, TemplateFunction> all() {
        return Map.of(
                "toJSON", TemplateFunction.fixed(1, a -> JSON.writeValueAsString(a.getFirst())),
                "toJSONPretty", TemplateFunction.fixed(1, a -> JSON.writer().with(PRETTY).writeValueAsString(a.getFirst())),
                "parseJSON", TemplateFunction.fixed(1, a -> normalise(JSON.readValue(TextFunctions.text(a.getFirst()), Object.class))));
    }

    /** Go's {@code strconv.Quote} of plain text, for error messages. */
    static String quote(String s) {
        return JSON.writeValueAsString(s);
    }

    private static Object normalise(Object v) {
        return switch (v) {
            case Integer i -> (long) i;
            case java.math.BigInteger b -> b.doubleValue();
            case java.math.BigDecimal d -> d.doubleValue();
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, x) -> out.put(String.valueOf(k), normalise(x)));
                yield out;
            }
            case List<?> l -> {
                List<Object> out = new ArrayList<>();
                l.forEach(x -> out.add(normalise(x)));
                yield out;
            }
            case null -> null;
            default -> v;
        };
    }
}
