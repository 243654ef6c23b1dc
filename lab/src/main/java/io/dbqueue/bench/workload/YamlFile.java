package io.dbqueue.bench.workload;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A YAML file the lab reads (a workload, a scenario), bound to a record whose components are its keys in
 * snake_case over the keys of a defaults file. Every component but an {@link Optional} one must be set; an error
 * names the file, the mapping and the key: an unknown key (listing the known ones), a missing one, or a value of
 * the wrong kind. A value the record's own constructor refuses is its IllegalArgumentException, unchanged.
 */
public final class YamlFile {

    /**
     * As the lab read them before they were bound: a second document after {@code ---} is ignored rather than an
     * error, and a quoted number is text, not a number.
     */
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Float, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
            .build();

    private YamlFile() {
    }

    /**
     * The file's mapping; {@code what} names the kind of file in the error when it is not one. YAML that cannot be
     * read throws a {@link JacksonException}.
     */
    public static ObjectNode mapping(InputStream in, String source, String what) {
        if (YAML.readTree(in) instanceof ObjectNode mapping) {
            return mapping;
        }
        throw new IllegalArgumentException(source + ": " + what + " must be a YAML mapping of keys to values");
    }

    /** A mapping with no keys: the defaults of a file that has none. */
    public static ObjectNode empty() {
        return YAML.createObjectNode();
    }

    /** {@code values} over {@code defaults} (a nested mapping key by key), as a {@code type}. */
    public static <T extends Record> T bind(ObjectNode values, ObjectNode defaults, Class<T> type, String source) {
        ObjectNode all = over(values, defaults);
        requireSet(all, type, source);
        try {
            return YAML.treeToValue(all, type);
        } catch (DatabindException e) {
            if (e.getCause() instanceof IllegalArgumentException refused) {
                throw refused;
            }
            throw new IllegalArgumentException(message(e, all, source), e);
        }
    }

    private static ObjectNode over(ObjectNode values, ObjectNode defaults) {
        ObjectNode all = defaults.deepCopy();
        values.properties().forEach(e -> all.set(e.getKey(),
                e.getValue() instanceof ObjectNode nested && all.get(e.getKey()) instanceof ObjectNode base
                        ? over(nested, base) : e.getValue()));
        return all;
    }

    /** Fails on a key of {@code type} that {@code mapping} leaves out or sets to nothing, unless it is optional. */
    private static void requireSet(JsonNode mapping, Class<?> type, String where) {
        if (!type.isRecord() || !mapping.isObject()) {
            return; // not a mapping where one belongs: binding names it
        }
        for (RecordComponent component : type.getRecordComponents()) {
            String key = key(component.getName());
            JsonNode value = mapping.get(key);
            boolean optional = component.getType() == Optional.class;
            if (value == null || value.isNull()) {
                if (!optional) {
                    throw new IllegalArgumentException(where + ": '" + key + "' is missing");
                }
            } else {
                requireSet(value, optional ? (Class<?>) ((ParameterizedType) component.getGenericType())
                        .getActualTypeArguments()[0] : component.getType(), where + ", " + key);
            }
        }
    }

    private static String key(String component) {
        return component.replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
    }

    /** The error of a value of the wrong kind, or an unknown key, naming the file, the mapping and the key. */
    private static String message(DatabindException e, JsonNode all, String source) {
        List<JacksonException.Reference> path = e.getPath();
        StringBuilder where = new StringBuilder(source);
        JsonNode node = all;
        String key = null;
        boolean item = false;
        for (JacksonException.Reference step : path) {
            if (step.getPropertyName() != null) {
                if (key != null) {
                    where.append(", ").append(key);
                }
                key = step.getPropertyName();
                node = node.path(key);
            } else {
                item = true;
                node = node.path(step.getIndex());
            }
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return where + ": unknown key '" + unknown.getPropertyName() + "'; known keys: "
                    + unknown.getKnownPropertyIds().stream().map(Object::toString).sorted().toList();
        }
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType() : null;
        String value = node.isValueNode() ? node.asString() : node.toString();
        return where + ": '" + key + "' must " + (item ? "list " + kind(target, true) + ", has '"
                : "be " + kind(target, false) + ", was '") + value + "'";
    }

    /** What a value of {@code target} is, in the words of the error. */
    private static String kind(Class<?> target, boolean plural) {
        if (target == int.class || target == long.class || target == Integer.class || target == Long.class) {
            return plural ? "whole numbers" : "a whole number";
        }
        if (target == double.class || target == Double.class) {
            return plural ? "numbers" : "a number";
        }
        if (target == String.class) {
            return "text";
        }
        if (target != null && List.class.isAssignableFrom(target)) {
            return plural ? "lists" : "a list";
        }
        return plural ? "mappings of keys to values" : "a mapping of keys to values";
    }
}
