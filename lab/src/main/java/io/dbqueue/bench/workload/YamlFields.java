package io.dbqueue.bench.workload;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Typed access to the values of a YAML file the lab reads, with errors naming the key and the file. */
public record YamlFields(Map<String, Object> values, String source) {

    private static final Set<String> YAML_1_1_TRUE = Set.of("yes", "Yes", "YES", "on", "On", "ON");

    /** As Jackson 2 read them: a second document after {@code ---} is ignored rather than an error. */
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * Reads a YAML mapping; {@code what} names the kind of file in the error when it is not one. YAML that
     * cannot be read throws a {@link tools.jackson.core.JacksonException}.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(InputStream in, String source, String what) {
        Object value = YAML.readValue(in, Object.class);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(source + ": " + what + " must be a YAML mapping of keys to values");
        }
        return (Map<String, Object>) value;
    }

    /** Fails on a key outside {@code known}, listing the known ones. */
    public static void checkKeys(Map<String, Object> values, Set<String> known, String source) {
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "'; known keys: "
                        + known.stream().sorted().toList());
            }
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMapping(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    public boolean has(String key) {
        return values.get(key) != null;
    }

    /** A number with a fraction, e.g. a share or a rate. */
    public double decimal(String key) {
        Object value = required(key);
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException(source + ": '" + key + "' must be a number, was '" + value + "'");
    }

    public Object required(String key) {
        Object value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException(source + ": '" + key + "' is missing");
        }
        return value;
    }

    /** A nested mapping; absent means empty. */
    public Map<String, Object> mapping(String key) {
        Object value = values.get(key);
        if (value == null || value instanceof Map) {
            return asMapping(value);
        }
        throw new IllegalArgumentException(source + ": '" + key + "' must be a mapping of keys to values, was '"
                + value + "'");
    }

    public String text(String key) {
        return required(key).toString();
    }

    /**
     * A yes or no. Jackson 3 resolves YAML scalars as JSON does: only true and false are booleans, the rest text;
     * Jackson 2 also made true of an unquoted yes or on (YAML 1.1), which is kept here.
     */
    public boolean flag(String key) {
        Object value = required(key);
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString();
        return text.equalsIgnoreCase("true") || YAML_1_1_TRUE.contains(text);
    }

    public long number(String key) {
        Object value = required(key);
        if (value instanceof Number n) {
            return n.longValue();
        }
        throw new IllegalArgumentException(source + ": '" + key + "' must be a whole number, was '" + value + "'");
    }

    public Duration duration(String key) {
        return DurationText.parse(key, text(key));
    }

    public List<String> texts(String key) {
        return list(key).stream().map(Object::toString).toList();
    }

    public List<Integer> ints(String key) {
        return list(key).stream().map(v -> {
            if (v instanceof Number n) {
                return n.intValue();
            }
            throw new IllegalArgumentException(source + ": '" + key + "' must list whole numbers, has '" + v + "'");
        }).toList();
    }

    private List<?> list(String key) {
        Object value = required(key);
        return value instanceof List<?> l ? l : List.of(value);
    }
}
