package io.dbqueue.bench.workload;

import io.dbqueue.postgres.ServerProfile;
import tools.jackson.core.JacksonException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
            "pubsub-soak", "study-queue", "clients");

    private static final Set<String> KEYS = Set.of("name", "layouts", "batch_sizes", "drivers", "repeat", "warmup",
            "duration", "messages", "message_size", "producer_rate", "producers", "consumers", "max_backlog",
            "backlog", "mode", "stack", "log", "server_profile", "wakeup", "consumer_batch");
    private static final Set<String> STACK_KEYS = Set.of("messages_per_request", "concurrency");
    private static final Set<String> LOG_KEYS = Set.of("partitions", "groups", "read_batch", "segment_size",
            "retention");

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
        } catch (IOException | JacksonException e) {
            throw new IllegalArgumentException("cannot read workload file " + file + ": " + e.getMessage(), e);
        }
    }

    private static Workload parse(Map<String, Object> values, Map<String, Object> defaults, String source) {
        YamlFields f = new YamlFields(merge(values, defaults, KEYS, source), source);
        YamlFields stack = new YamlFields(merge(f.mapping("stack"), YamlFields.asMapping(defaults.get("stack")), STACK_KEYS,
                source + ", stack"), source + ", stack");
        YamlFields log = new YamlFields(merge(f.mapping("log"), YamlFields.asMapping(defaults.get("log")), LOG_KEYS, source + ", log"),
                source + ", log");
        return new Workload(f.text("name"), f.texts("layouts"), f.ints("batch_sizes"), f.texts("drivers").stream().map(DriverName::of).toList(),
                (int) f.number("repeat"), f.duration("warmup"), f.duration("duration"), f.number("messages"),
                (int) f.number("message_size"), (int) f.number("producer_rate"), f.ints("producers"),
                f.ints("consumers"), f.number("max_backlog"), f.number("backlog"),
                Workload.mode(f.text("mode")),
                new StackLoad((int) stack.number("messages_per_request"), (int) stack.number("concurrency")),
                new LogLoad((int) log.number("partitions"), (int) log.number("groups"), (int) log.number("read_batch"),
                        log.number("segment_size"), log.text("retention")),
                ServerProfile.named(f.text("server_profile")), Workload.wakeup(f.text("wakeup")),
                (int) f.number("consumer_batch"));
    }

    /** {@code values} over {@code defaults}, after checking that {@code values} sets only known keys. */
    private static Map<String, Object> merge(Map<String, Object> values, Map<String, Object> defaults,
                                             Set<String> known, String source) {
        YamlFields.checkKeys(values, known, source);
        Map<String, Object> all = new LinkedHashMap<>(defaults);
        all.putAll(values);
        return all;
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

    private static Map<String, Object> map(InputStream in, String source) {
        return YamlFields.read(in, source, "a workload file");
    }
}
