package io.dbqueue.bench.scenario;

import java.util.List;
import java.util.Optional;

/** A scenario file's keys as written, the defaults' where the file leaves one out; see {@link Scenario}. */
record ScenarioYaml(String name, String description, double rate, String warmup, String duration, int workers,
                    int processes, String work, String delay, int batchSize, int tenants, double noisyShare, Optional<Spike> spike,
                    Optional<Failures> failures, String saturated, List<String> modes, List<String> fairness,
                    Optional<Integer> fairnessCap, int repeat, Optional<RateLimit> rateLimit) {

    record Spike(String start, String length, int factor) {
    }

    record RateLimit(double perSecond, int burst) {
    }

    record Failures(double share, int attempts, String backoff) {
    }
}
