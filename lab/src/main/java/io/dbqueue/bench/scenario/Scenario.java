package io.dbqueue.bench.scenario;

import io.dbqueue.bench.workload.DurationText;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One shape of load for {@code bench scenario}: tasks arrive at {@code rate} per second (times
 * {@code spike.factor} during the spike), are spread over tenants, take {@code work} each on
 * {@code workers} worker threads in {@code processes} consumer processes, and some fail on purpose.
 * With a {@code delay} each task is enqueued due that long after it is sent.
 * Which task goes to which tenant, and how often it fails, follows from its number alone, so every
 * mode and repetition gets the same tasks.
 *
 * @param saturated   whether the workers cannot keep up (the targets compare throughput there, pickup elsewhere)
 * @param fairnessCap with fairness on, the most workers on one tenant's queue at once
 * @param rateLimit   the queue's rate limit ({@code QueueLimits}), which every consumer process takes its share of
 */
public record Scenario(String name, String description, double rate, Duration warmup, Duration duration, int workers,
                       int processes, Duration work, Duration delay, int batchSize, int tenants, double noisyShare,
                       Optional<Spike> spike, Optional<Failures> failures, boolean saturated, List<WakeupSetting> modes,
                       List<Fairness> fairness, int fairnessCap, int repeat, Optional<RateLimit> rateLimit) {

    /** The arrival rate is multiplied by {@code factor} from {@code start} (after the first task) for {@code length}. */
    public record Spike(Duration start, Duration length, int factor) {
    }

    /** Tasks started per second by all the consumer processes together, at most {@code burst} at once. */
    public record RateLimit(double perSecond, int burst) {
    }

    /**
     * A {@code share} of the tasks fails on purpose, each of them 1 to {@code attempts} times (as many
     * as {@code attempts}: it is dead-lettered); retries wait {@code backoff} doubling per attempt.
     */
    public record Failures(double share, int attempts, Duration backoff) {
    }

    public Scenario {
        Objects.requireNonNull(name, "name");
        modes = List.copyOf(modes);
        fairness = List.copyOf(fairness);
    }

    public Scenario withRepeat(int value) {
        return new Scenario(name, description, rate, warmup, duration, workers, processes, work, delay, batchSize, tenants,
                noisyShare, spike, failures, saturated, modes, fairness, fairnessCap, value, rateLimit);
    }

    /** When task {@code k} (from 0) is due, in nanoseconds after the first. */
    public long sendNanos(long k) {
        double perSecond = rate;
        if (spike.isEmpty()) {
            return (long) (k / perSecond * 1e9);
        }
        Spike s = spike.get();
        double start = s.start().toNanos() / 1e9;
        double length = s.length().toNanos() / 1e9;
        double before = perSecond * start;
        double during = perSecond * s.factor() * length;
        double seconds;
        if (k < before) {
            seconds = k / perSecond;
        } else if (k < before + during) {
            seconds = start + (k - before) / (perSecond * s.factor());
        } else {
            seconds = start + length + (k - before - during) / perSecond;
        }
        return (long) (seconds * 1e9);
    }

    /** How many tasks are due before warm-up and measured window end. */
    public long taskCount() {
        long end = warmup.plus(duration).toNanos();
        long low = 0;
        long high = (long) (rate * (spike.map(Spike::factor).orElse(1)) * end / 1e9) + 2;
        while (low < high) { // the first k due at or after the end
            long mid = (low + high) >>> 1;
            if (sendNanos(mid) < end) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Task {@code k}'s tenant: tenant 0 is the noisy one when there is a noisy share. */
    public int tenantOf(long k) {
        if (tenants == 1) {
            return 0;
        }
        if (noisyShare > 0) {
            return fraction(k, 1) < noisyShare ? 0 : 1 + (int) (k % (tenants - 1));
        }
        return (int) (k % tenants);
    }

    /** How many times task {@code k} fails on purpose (0 for most). */
    public int plannedFailures(long k) {
        if (failures.isEmpty() || fraction(k, 2) >= failures.get().share()) {
            return 0;
        }
        return 1 + (int) (fraction(k, 3) * failures.get().attempts());
    }

    /** Whether some attempts come due after they were written: delayed tasks or retries. */
    public boolean hasDueLater() {
        return !delay.isZero() || failures.isPresent();
    }

    /** Whether some tenant is the noisy one. */
    public boolean hasNoisyTenant() {
        return tenants > 1 && noisyShare > 0;
    }

    /** The definition as the report's JSON shows it. */
    public Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate", rate);
        m.put("warmup", DurationText.format(warmup));
        m.put("duration", DurationText.format(duration));
        m.put("workers", workers);
        m.put("processes", processes);
        m.put("work", DurationText.format(work));
        m.put("delay", DurationText.format(delay));
        m.put("batch_size", batchSize);
        m.put("tenants", tenants);
        m.put("noisy_share", noisyShare);
        spike.ifPresent(s -> m.put("spike", Map.of("start", DurationText.format(s.start()), "length",
                DurationText.format(s.length()), "factor", s.factor())));
        failures.ifPresent(f -> m.put("failures", Map.of("share", f.share(), "attempts", f.attempts(), "backoff",
                DurationText.format(f.backoff()))));
        m.put("saturated", saturated);
        m.put("modes", modes.stream().map(WakeupSetting::label).toList());
        m.put("fairness", fairness.stream().map(Fairness::label).toList());
        m.put("fairness_cap", fairnessCap);
        m.put("repeat", repeat);
        rateLimit.ifPresent(r -> m.put("rate_limit", Map.of("per_second", r.perSecond(), "burst", r.burst())));
        return m;
    }

    /** A fraction in [0, 1) that depends only on {@code k} and {@code stream} (SplitMix64). */
    static double fraction(long k, int stream) {
        long z = k * 0x9E3779B97F4A7C15L + stream * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
