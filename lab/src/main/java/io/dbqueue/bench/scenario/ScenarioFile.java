package io.dbqueue.bench.scenario;

import io.dbqueue.bench.workload.YamlFields;
import tools.jackson.core.JacksonException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads a scenario from YAML. The shipped scenarios are such files on the classpath
 * ({@code /scenarios/<name>.yaml}, listed in {@link #NAMES}); a user's file may set only some keys,
 * the rest come from {@code /scenarios/defaults.yaml}.
 */
public final class ScenarioFile {

    public static final List<String> NAMES = List.of("notify_latency", "steady_under", "steady_balanced", "steady_over",
            "burst", "noisy_neighbor", "noisy_neighbor_saturated", "rate_limit_pressure", "high_scale", "multi_process");

    private static final Set<String> KEYS = Set.of("name", "description", "rate", "warmup", "duration", "workers",
            "processes", "work", "batch_size", "tenants", "noisy_share", "spike", "failures", "saturated", "modes",
            "fairness", "fairness_cap", "repeat");
    private static final Set<String> SPIKE_KEYS = Set.of("start", "length", "factor");
    private static final Set<String> FAILURE_KEYS = Set.of("share", "attempts", "backoff");
    private static final int MAX_PROCESSES = 8;

    private ScenarioFile() {
    }

    /** A shipped scenario by name, or a file when {@code nameOrPath} ends in .yaml or .yml. */
    public static Scenario load(String nameOrPath) {
        if (nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml")) {
            Path file = Path.of(nameOrPath);
            try (InputStream in = Files.newInputStream(file)) {
                return parse(YamlFields.read(in, file.toString(), "a scenario file"), file.toString());
            } catch (IOException | JacksonException e) {
                throw new IllegalArgumentException("cannot read scenario file " + file + ": " + e.getMessage(), e);
            }
        }
        if (!NAMES.contains(nameOrPath)) {
            throw new IllegalArgumentException("unknown scenario '" + nameOrPath + "'; shipped scenarios: " + NAMES
                    + ", or all, or a path ending in .yaml");
        }
        return parse(resource(nameOrPath), "scenario " + nameOrPath);
    }

    static Scenario parse(Map<String, Object> values, String source) {
        YamlFields.checkKeys(values, KEYS, source);
        Map<String, Object> all = new LinkedHashMap<>(resource("defaults"));
        all.putAll(values);
        YamlFields f = new YamlFields(all, source);
        int workers = (int) f.number("workers");
        int processes = (int) f.number("processes");
        int tenants = (int) f.number("tenants");
        double noisyShare = f.decimal("noisy_share");
        check(source, "rate", f.decimal("rate") > 0 && f.decimal("rate") <= 100_000, "between 0 and 100,000 tasks/s");
        check(source, "workers", workers >= 1 && workers <= 1000, "between 1 and 1000");
        check(source, "processes", processes >= 1 && processes <= MAX_PROCESSES && processes <= workers,
                "between 1 and " + MAX_PROCESSES + ", and no more than the workers");
        check(source, "batch_size", f.number("batch_size") >= 1 && f.number("batch_size") <= 10_000, "between 1 and 10,000");
        check(source, "tenants", tenants >= 1 && tenants <= 1000, "between 1 and 1000");
        check(source, "noisy_share", noisyShare >= 0 && noisyShare < 1 && (noisyShare == 0 || tenants >= 2),
                "at least 0 and below 1, and needs 2 tenants or more");
        List<WakeupSetting> modes = within(source, () -> f.texts("modes").stream().map(WakeupSetting::parse).toList());
        check(source, "modes", !modes.isEmpty(), "at least one mode");
        List<Fairness> fairness = within(source, () -> f.texts("fairness").stream().map(Fairness::parse).toList());
        check(source, "fairness", !fairness.isEmpty() && (tenants >= 2 || fairness.equals(List.of(Fairness.OFF))),
                "at least one of off, on, quiet-only; on and quiet-only need 2 tenants or more");
        check(source, "fairness", noisyShare > 0 || !fairness.contains(Fairness.QUIET_ONLY),
                "quiet-only only with a noisy_share");
        int cap = f.has("fairness_cap") ? (int) f.number("fairness_cap") : workers / processes;
        check(source, "fairness_cap", cap >= 1 && cap <= workers / processes, "between 1 and the workers per process");
        check(source, "repeat", f.number("repeat") >= 1 && f.number("repeat") <= 100, "between 1 and 100");
        Duration duration = f.duration("duration");
        check(source, "duration", !duration.isZero(), "positive");
        return new Scenario(f.text("name"), f.text("description"), f.decimal("rate"), f.duration("warmup"), duration,
                workers, processes, f.duration("work"), (int) f.number("batch_size"), tenants, noisyShare,
                spike(f, source), failures(f, source), f.flag("saturated"), modes, fairness, cap,
                (int) f.number("repeat"));
    }

    private static Optional<Scenario.Spike> spike(YamlFields f, String source) {
        return nested(f, "spike", SPIKE_KEYS, source).map(s -> {
            check(s.source(), "factor", s.number("factor") >= 1 && s.number("factor") <= 100, "between 1 and 100");
            return new Scenario.Spike(s.duration("start"), s.duration("length"), (int) s.number("factor"));
        });
    }

    private static Optional<Scenario.Failures> failures(YamlFields f, String source) {
        return nested(f, "failures", FAILURE_KEYS, source).map(s -> {
            check(s.source(), "share", s.decimal("share") >= 0 && s.decimal("share") <= 1, "between 0 and 1");
            check(s.source(), "attempts", s.number("attempts") >= 1 && s.number("attempts") <= 100, "between 1 and 100");
            Duration backoff = s.duration("backoff");
            check(s.source(), "backoff", !backoff.isZero(), "positive");
            return new Scenario.Failures(s.decimal("share"), (int) s.number("attempts"), backoff);
        });
    }

    /** A nested mapping such as {@code spike: {...}}, its keys checked; empty when the key is not set. */
    private static Optional<YamlFields> nested(YamlFields f, String key, Set<String> keys, String source) {
        if (!f.has(key)) {
            return Optional.empty();
        }
        String where = source + ", " + key;
        YamlFields nested = new YamlFields(f.mapping(key), where);
        YamlFields.checkKeys(nested.values(), keys, where);
        return Optional.of(nested);
    }

    /** Runs a parse whose errors do not know the file, naming it in them. */
    private static <T> T within(String source, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(source) ? e : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static void check(String source, String key, boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(source + ": '" + key + "' must be " + rule);
        }
    }

    private static Map<String, Object> resource(String name) {
        String path = "/scenarios/" + name + ".yaml";
        try (InputStream in = ScenarioFile.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("scenario resource " + path + " is missing from the bench jar");
            }
            return YamlFields.read(in, path, "a scenario file");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
