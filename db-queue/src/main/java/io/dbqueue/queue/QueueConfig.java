package io.dbqueue.queue;

import io.dbqueue.DeliveryMode;

import java.time.Duration;
import java.util.Objects;

/**
 * How one queue is consumed.
 *
 * @param leaseTimeout how long an at-least-once claim keeps a task from other consumers; a consumer
 *                     that dies lets its tasks reappear after this long. Must exceed the handler's
 *                     longest run, or a slow task is handed out twice.
 * @param vacuum       when the workers vacuum their table themselves, so that no server setting is needed
 */
public record QueueConfig(QueueLocation location, DeliveryMode mode, int threads, PollSettings poll,
                          RetryPolicy retry, Duration leaseTimeout, VacuumPolicy vacuum) {

    public static final int MAX_THREADS = 1000;

    public QueueConfig {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(poll, "poll");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(vacuum, "vacuum");
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads);
        }
        if (leaseTimeout == null || leaseTimeout.isNegative() || leaseTimeout.isZero()) {
            throw new IllegalArgumentException("leaseTimeout must be positive, was " + leaseTimeout);
        }
    }

    /** At least once, one thread, the experiment's poll settings, default retries, a 5-minute lease, and
     *  the table vacuumed after every 10,000 claimed tasks. */
    public static QueueConfig of(QueueLocation location) {
        return new QueueConfig(location, DeliveryMode.AT_LEAST_ONCE, 1, PollSettings.DEFAULT, RetryPolicy.DEFAULT,
                Duration.ofMinutes(5), VacuumPolicy.DEFAULT);
    }

    public QueueConfig withMode(DeliveryMode value) {
        return new QueueConfig(location, value, threads, poll, retry, leaseTimeout, vacuum);
    }

    public QueueConfig withThreads(int value) {
        return new QueueConfig(location, mode, value, poll, retry, leaseTimeout, vacuum);
    }

    public QueueConfig withPoll(PollSettings value) {
        return new QueueConfig(location, mode, threads, value, retry, leaseTimeout, vacuum);
    }

    public QueueConfig withBatchSize(int value) {
        return withPoll(poll.withBatchSize(value));
    }

    public QueueConfig withRetry(RetryPolicy value) {
        return new QueueConfig(location, mode, threads, poll, value, leaseTimeout, vacuum);
    }

    public QueueConfig withLeaseTimeout(Duration value) {
        return new QueueConfig(location, mode, threads, poll, retry, value, vacuum);
    }

    public QueueConfig withVacuum(VacuumPolicy value) {
        return new QueueConfig(location, mode, threads, poll, retry, leaseTimeout, value);
    }
}
