package io.dbqueue.bench.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dbqueue.postgres.ServerProfile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a workload from YAML, in the spirit of the OpenMessaging Benchmark workload files. The
 * built-in profiles ({@code quick}, {@code default}, {@code full}, {@code stability}, {@code backlog})
 * are such files on the classpath; any other file, a profile or a user's, may set only some keys,
 * the rest come from the {@code default} profile.
 */
public final class WorkloadFile {

    public static final List<String> PROFILES = List.of("quick", "default", "full", "stability", "backlog", "ceiling", "pubsub",
            "pubsub-soak", "study-queue");

    private static final Set<String> KEYS = Set.of("name", "layouts", "batch_sizes", "drivers", "repeat", "warmup",
            "duration", "messages", "message_size", "producer_rate", "producers", "consumers", "max_backlog",
            "backlog", "mode", "stack", "log", "server_profile");
    private static final Set<String> STACK_KEYS = Set.of("messages_per_request", "concurrency");
    private static final Set<String> LOG_KEYS = Set.of("partitions", "groups", "read_batch", "segment_size",
            "retention");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private WorkloadFile() {
    }

    public static Workload profile(String name) {
        if (!PROFILES.contains(name)) {
            throw new IllegalArgumentException("unknown profile '" + name + "'; known profiles: " + PROFILES);
        }
        return parse(resource(name), name.equals("default") ? Map.of() : resource("default"), "profile " + name);
    }

    /** A workload file; keys it does not set come from the default profile. */
    public static Workload read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(map(in, file.toString()), resource("default"), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read workload file " + file + ": " + e.getMessage(), e);
        }
    }

    private static Workload parse(Map<String, Object> values, Map<String, Object> defaults, String source) {
        Fields f = new Fields(merge(values, defaults, KEYS, source), source);
        Fields stack = new Fields(merge(f.mapping("stack"), mapping(defaults.get("stack")), STACK_KEYS,
                source + ", stack"), source + ", stack");
        Fields log = new Fields(merge(f.mapping("log"), mapping(defaults.get("log")), LOG_KEYS, source + ", log"),
                source + ", log");
        return new Workload(f.text("name"), f.texts("layouts"), f.ints("batch_sizes"), f.texts("drivers"),
                (int) f.number("repeat"), f.duration("warmup"), f.duration("duration"), f.number("messages"),
                (int) f.number("message_size"), (int) f.number("producer_rate"), (int) f.number("producers"),
                (int) f.number("consumers"), f.number("max_backlog"), f.number("backlog"),
                Workload.mode(f.text("mode")),
                new StackLoad((int) stack.number("messages_per_request"), (int) stack.number("concurrency")),
                new LogLoad((int) log.number("partitions"), (int) log.number("groups"), (int) log.number("read_batch"),
                        log.number("segment_size"), log.text("retention")),
                ServerProfile.named(f.text("server_profile")));
    }

    /** {@code values} over {@code defaults}, after checking that {@code values} sets only known keys. */
    private static Map<String, Object> merge(Map<String, Object> values, Map<String, Object> defaults,
                                             Set<String> known, String source) {
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "'; known keys: "
                        + known.stream().sorted().toList());
            }
        }
        Map<String, Object> all = new LinkedHashMap<>(defaults);
        all.putAll(values);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapping(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static Map<String, Object> resource(String profile) {
        String path = "/profiles/" + profile + ".yaml";
        try (InputStream in = WorkloadFile.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("profile resource " + path + " is missing from the bench jar");
            }
            return map(in, path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(InputStream in, String source) throws IOException {
        Object value = YAML.readValue(in, Object.class);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(source + ": a workload file must be a YAML mapping of keys to values");
        }
        return (Map<String, Object>) value;
    }

    /** Typed access to the parsed values, with errors naming the key and the file. */
    private record Fields(Map<String, Object> values, String source) {

        Object required(String key) {
            Object value = values.get(key);
            if (value == null) {
                throw new IllegalArgumentException(source + ": '" + key + "' is missing");
            }
            return value;
        }

        /** A nested mapping; absent means empty. */
        Map<String, Object> mapping(String key) {
            Object value = values.get(key);
            if (value == null || value instanceof Map) {
                return WorkloadFile.mapping(value);
            }
            throw new IllegalArgumentException(source + ": '" + key + "' must be a mapping of keys to values, was '"
                    + value + "'");
        }

        String text(String key) {
            return required(key).toString();
        }

        long number(String key) {
            Object value = required(key);
            if (value instanceof Number n) {
                return n.longValue();
            }
            throw new IllegalArgumentException(source + ": '" + key + "' must be a whole number, was '" + value + "'");
        }

        Duration duration(String key) {
            return DurationText.parse(key, text(key));
        }

        List<String> texts(String key) {
            return list(key).stream().map(Object::toString).toList();
        }

        List<Integer> ints(String key) {
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
}
