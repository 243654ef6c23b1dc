package io.dbqueue;

import java.time.Duration;
import java.util.Objects;

/**
 * How one queue is consumed.
 *
 * @param leaseTimeout how long an at-least-once claim keeps a task from other consumers; a consumer
 *                     that dies lets its tasks reappear after this long. Must exceed the handler's
 *                     longest run, or a slow task is handed out twice.
 */
public record QueueConfig(QueueLocation location, DeliveryMode mode, int threads, PollSettings poll,
                          RetryPolicy retry, Duration leaseTimeout) {

    public static final int MAX_THREADS = 1000;

    public QueueConfig {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(poll, "poll");
        Objects.requireNonNull(retry, "retry");
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads);
        }
        if (leaseTimeout == null || leaseTimeout.isNegative() || leaseTimeout.isZero()) {
            throw new IllegalArgumentException("leaseTimeout must be positive, was " + leaseTimeout);
        }
    }

    /** At least once, one thread, the experiment's poll settings, default retries, a 5-minute lease. */
    public static QueueConfig of(QueueLocation location) {
        return new QueueConfig(location, DeliveryMode.AT_LEAST_ONCE, 1, PollSettings.DEFAULT, RetryPolicy.DEFAULT,
                Duration.ofMinutes(5));
    }

    public QueueConfig withMode(DeliveryMode value) {
        return new QueueConfig(location, value, threads, poll, retry, leaseTimeout);
    }

    public QueueConfig withThreads(int value) {
        return new QueueConfig(location, mode, value, poll, retry, leaseTimeout);
    }

    public QueueConfig withPoll(PollSettings value) {
        return new QueueConfig(location, mode, threads, value, retry, leaseTimeout);
    }

    public QueueConfig withBatchSize(int value) {
        return withPoll(poll.withBatchSize(value));
    }

    public QueueConfig withRetry(RetryPolicy value) {
        return new QueueConfig(location, mode, threads, poll, value, leaseTimeout);
    }

    public QueueConfig withLeaseTimeout(Duration value) {
        return new QueueConfig(location, mode, threads, poll, retry, value);
    }
}
