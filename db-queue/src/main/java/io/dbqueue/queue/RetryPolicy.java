package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.InvalidValueException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a failed task is tried again, and how often. The delay is written into the task's row
 * ({@code next_process_at}), never kept in memory, so retries survive restarts.
 *
 * <p>For the n-th failure (n = 1, 2, ...), with {@code k = n - 1} as the experiment counted:
 * geometric waits {@code interval * 2^k}, arithmetic {@code interval * (1 + 2k)}, linear
 * {@code interval}. Jitter adds a random share of up to {@code jitter} of that delay, so that
 * tasks that failed together do not retry together. Delays are capped at {@code maxDelay}.
 * After {@code maxAttempts} attempts a failing task moves to the dead-letter table.
 */
public record RetryPolicy(RetryType type, Duration interval, int maxAttempts, double jitter, Duration maxDelay) {

    public enum RetryType { GEOMETRIC, ARITHMETIC, LINEAR }

    public static final RetryPolicy DEFAULT = new RetryPolicy(RetryType.GEOMETRIC, Duration.ofSeconds(1), 10, 0.0,
            Duration.ofDays(1));

    public RetryPolicy {
        Objects.requireNonNull(type, "retry type");
        Checks.positive("interval", interval);
        Checks.atLeast("maxAttempts", maxAttempts, 1);
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new InvalidValueException("jitter", "must be between 0 and 1", jitter);
        }
        if (maxDelay == null || maxDelay.compareTo(interval) < 0) {
            throw new InvalidValueException("maxDelay", "must be at least the interval", maxDelay);
        }
        Checks.atMostLongest("maxDelay", maxDelay);
    }

    /** A policy without jitter, its delays capped at one day or at the interval when that is longer. */
    public static RetryPolicy of(RetryType type, Duration interval, int maxAttempts) {
        Duration cap = interval != null && interval.compareTo(DEFAULT.maxDelay) > 0 ? interval : DEFAULT.maxDelay;
        return new RetryPolicy(type, interval, maxAttempts, 0.0, cap);
    }

    public RetryPolicy withJitter(double share) {
        return new RetryPolicy(type, interval, maxAttempts, share, maxDelay);
    }

    public RetryPolicy withMaxDelay(Duration cap) {
        return new RetryPolicy(type, interval, maxAttempts, jitter, cap);
    }

    /** The delay before the retry that follows failed attempt number {@code attempt} (1-based). */
    public Duration delayAfter(int attempt) {
        int k = Math.max(attempt - 1, 0);
        long base = interval.toNanos();
        long cap = maxDelay.toNanos();
        long delay = switch (type) {
            case GEOMETRIC -> k >= 62 || base > (cap >> Math.min(k, 62)) ? cap : base << k;
            case ARITHMETIC -> base > cap / (1L + 2L * k) ? cap : base * (1L + 2L * k);
            case LINEAR -> base;
        };
        delay = Math.min(delay, cap);
        if (jitter > 0) {
            delay = Math.min(cap, delay + (long) (delay * jitter * ThreadLocalRandom.current().nextDouble()));
        }
        return Duration.ofNanos(delay);
    }

    public boolean exhausted(int attempt) {
        return attempt >= maxAttempts;
    }
}
