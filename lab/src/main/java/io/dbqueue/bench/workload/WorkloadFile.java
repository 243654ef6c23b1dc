package io.dbqueue.bench.workload;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a workload from YAML, in the spirit of the OpenMessaging Benchmark workload files. The
 * built-in profiles ({@code quick}, {@code default}, {@code full}, {@code stability}, {@code backlog})
 * are such files on the classpath; any other file, a profile or a user's, may set only some keys,
 * the rest come from the {@code default} profile.
 */
public final class WorkloadFile {

    public static final List<String> PROFILES = List.of("quick", "default", "full", "stability", "backlog", "ceiling", "pubsub",
            "pubsub-soak", "study-queue", "clients", "priorities", "priorities-drain", "headers", "history");

    private WorkloadFile() {
    }

    public static Workload profile(String name) {
        if (!PROFILES.contains(name)) {
            throw new IllegalArgumentException("unknown profile '" + name + "'; known profiles: " + PROFILES);
        }
        return parse(resource(name), name.equals("default") ? YamlFile.empty() : resource("default"),
                "profile " + name);
    }

    /** A workload file; keys it does not set come from the default profile. */
    public static Workload read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(map(in, file.toString()), resource("default"), file.toString());
        } catch (IOException | JacksonException e) {
            throw new IllegalArgumentException("cannot read workload file " + file + ": " + e.getMessage(), e);
        }
    }

    private static Workload parse(ObjectNode values, ObjectNode defaults, String source) {
        return YamlFile.bind(values, defaults, WorkloadYaml.class, source).workload();
    }

    private static ObjectNode resource(String profile) {
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

    private static ObjectNode map(InputStream in, String source) {
        return YamlFile.mapping(in, source, "a workload file");
    }
}
