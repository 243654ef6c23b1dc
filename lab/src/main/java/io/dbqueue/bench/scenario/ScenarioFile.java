package io.dbqueue.bench.scenario;

import io.dbqueue.bench.workload.DurationText;
import io.dbqueue.bench.workload.YamlFile;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads a scenario from YAML. The shipped scenarios are such files on the classpath
 * ({@code /scenarios/<name>.yaml}, listed in {@link #NAMES}); a user's file may set only some keys,
 * the rest come from {@code /scenarios/defaults.yaml}.
 */
public final class ScenarioFile {

    public static final List<String> NAMES = List.of("notify_latency", "steady_under", "steady_balanced", "steady_over",
            "burst", "noisy_neighbor", "noisy_neighbor_saturated", "rate_limit_pressure", "high_scale", "multi_process",
            "delayed_due");

    private static final Set<String> YAML_1_1_TRUE = Set.of("true", "yes", "on");
    private static final Set<String> YAML_1_1_FALSE = Set.of("false", "no", "off");
    private static final int MAX_PROCESSES = 8;

    private ScenarioFile() {
    }

    /** A shipped scenario by name, or a file when {@code nameOrPath} ends in .yaml or .yml. */
    public static Scenario load(String nameOrPath) {
        if (nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml")) {
            Path file = Path.of(nameOrPath);
            try (InputStream in = Files.newInputStream(file)) {
                return parse(YamlFile.mapping(in, file.toString(), "a scenario file"), file.toString());
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

    static Scenario parse(ObjectNode values, String source) {
        ScenarioYaml f = YamlFile.bind(values, resource("defaults"), ScenarioYaml.class, source);
        int workers = f.workers();
        int processes = f.processes();
        int tenants = f.tenants();
        double noisyShare = f.noisyShare();
        check(source, "rate", f.rate() > 0 && f.rate() <= 100_000, "between 0 and 100,000 tasks/s");
        check(source, "workers", workers >= 1 && workers <= 1000, "between 1 and 1000");
        check(source, "processes", processes >= 1 && processes <= MAX_PROCESSES && processes <= workers,
                "between 1 and " + MAX_PROCESSES + ", and no more than the workers");
        check(source, "batch_size", f.batchSize() >= 1 && f.batchSize() <= 10_000, "between 1 and 10,000");
        check(source, "tenants", tenants >= 1 && tenants <= 1000, "between 1 and 1000");
        check(source, "noisy_share", noisyShare >= 0 && noisyShare < 1 && (noisyShare == 0 || tenants >= 2),
                "at least 0 and below 1, and needs 2 tenants or more");
        List<WakeupSetting> modes = within(source, () -> f.modes().stream().map(WakeupSetting::parse).toList());
        check(source, "modes", !modes.isEmpty(), "at least one mode");
        List<Fairness> fairness = within(source, () -> f.fairness().stream().map(Fairness::parse).toList());
        check(source, "fairness", !fairness.isEmpty() && (tenants >= 2 || fairness.equals(List.of(Fairness.OFF))),
                "at least one of off, on, quiet-only; on and quiet-only need 2 tenants or more");
        check(source, "fairness", noisyShare > 0 || !fairness.contains(Fairness.QUIET_ONLY),
                "quiet-only only with a noisy_share");
        int cap = f.fairnessCap().orElse(workers / processes);
        check(source, "fairness_cap", cap >= 1 && cap <= workers / processes, "between 1 and the workers per process");
        check(source, "repeat", f.repeat() >= 1 && f.repeat() <= 100, "between 1 and 100");
        Duration duration = duration(source, "duration", f.duration());
        check(source, "duration", !duration.isZero(), "positive");
        return new Scenario(f.name(), f.description(), f.rate(), duration(source, "warmup", f.warmup()), duration,
                workers, processes, duration(source, "work", f.work()), duration(source, "delay", f.delay()), f.batchSize(), tenants, noisyShare,
                f.spike().map(s -> spike(s, source + ", spike")),
                f.failures().map(s -> failures(s, source + ", failures")), flag(source, "saturated", f.saturated()),
                modes, fairness, cap, f.repeat(), f.rateLimit().map(r -> rateLimit(r, source + ", rate_limit")));
    }

    private static Scenario.Spike spike(ScenarioYaml.Spike s, String where) {
        check(where, "factor", s.factor() >= 1 && s.factor() <= 100, "between 1 and 100");
        return new Scenario.Spike(duration(where, "start", s.start()), duration(where, "length", s.length()),
                s.factor());
    }

    private static Scenario.RateLimit rateLimit(ScenarioYaml.RateLimit r, String where) {
        check(where, "per_second", r.perSecond() > 0 && r.perSecond() <= 100_000, "between 0 and 100,000 tasks/s");
        check(where, "burst", r.burst() >= 1 && r.burst() <= 100_000, "between 1 and 100,000");
        return new Scenario.RateLimit(r.perSecond(), r.burst());
    }

    private static Scenario.Failures failures(ScenarioYaml.Failures s, String where) {
        check(where, "share", s.share() >= 0 && s.share() <= 1, "between 0 and 1");
        check(where, "attempts", s.attempts() >= 1 && s.attempts() <= 100, "between 1 and 100");
        Duration backoff = duration(where, "backoff", s.backoff());
        check(where, "backoff", !backoff.isZero(), "positive");
        return new Scenario.Failures(s.share(), s.attempts(), backoff);
    }

    /**
     * A yes or no. Jackson 3 reads YAML scalars as JSON does, only true and false being booleans; Jackson 2 also read
     * an unquoted yes, on, no and off (YAML 1.1), which files may still say.
     */
    private static boolean flag(String source, String key, String text) {
        boolean yes = YAML_1_1_TRUE.contains(text.toLowerCase(Locale.ROOT));
        check(source, key, yes || YAML_1_1_FALSE.contains(text.toLowerCase(Locale.ROOT)), "true or false");
        return yes;
    }

    /** Runs a parse whose errors do not know the file, naming it in them. */
    private static <T> T within(String source, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(source) ? e : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static Duration duration(String where, String key, String text) {
        return within(where, () -> DurationText.parse(key, text));
    }

    private static void check(String source, String key, boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(source + ": '" + key + "' must be " + rule);
        }
    }

    private static ObjectNode resource(String name) {
        String path = "/scenarios/" + name + ".yaml";
        try (InputStream in = ScenarioFile.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("scenario resource " + path + " is missing from the bench jar");
            }
            return YamlFile.mapping(in, path, "a scenario file");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
