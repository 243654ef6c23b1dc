package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import java.time.Duration;
import java.util.Objects;

/**
 * How one queue is consumed.
 *
 * @param leaseTimeout   how long an at-least-once claim keeps a task from other consumers; a consumer
 *                       that dies lets its tasks reappear after this long
 * @param leaseHeartbeat at least once: whether the leases of a running batch are extended by a whole
 *                       lease every third of one, so that a handler may run longer than the lease
 *                       (see {@link TaskBatch#heartbeat()}); off, a handler that outlives the lease
 *                       has its tasks handed out again while it runs
 * @param wakeup         how idle workers learn of new tasks; {@link Wakeup#NOTIFY} and
 *                       {@link Wakeup#ADAPTIVE} need {@link QueueWakeups} in the consumer and a
 *                       {@link QueueNotifier} on the producers, which {@code DbQueue} runs
 * @param limits         the rate, in-flight and per-key limits that all the queue's consumers, in every process,
 *                       respect together; not with {@link DeliveryMode#EXACTLY_ONCE}, and the per-key limit at least
 *                       once only
 * @param history        how long finished tasks are kept in the table's {@link QueueTable#historyTable()}, where
 *                       {@link QueueAdmin#find} still finds them; null (the default): a finished task is deleted.
 *                       Kept by whole partitions, so a task stays up to one partition longer ({@link HistoryTable});
 *                       not for at most once, whose claim deletes a task before it is handled
 */
public record QueueConfig(QueueLocation location, DeliveryMode mode, int threads, PollSettings poll,
                          RetryPolicy retry, Duration leaseTimeout, boolean leaseHeartbeat,
                          Wakeup wakeup, QueueLimits limits, Duration history) {

    public static final int MAX_THREADS = 1000;

    public QueueConfig {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(poll, "poll");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(wakeup, "wakeup");
        Objects.requireNonNull(limits, "limits");
        if (limits.any() && mode == DeliveryMode.EXACTLY_ONCE) {
            throw new InvalidValueException("limits", "apply to AT_LEAST_ONCE and AT_MOST_ONCE only: exactly once, a"
                    + " batch's claim and handler share one transaction, which would hold the queue's limit throughout",
                    limits);
        }
        if (limits.perKeyLimited() && mode == DeliveryMode.AT_MOST_ONCE) {
            throw new InvalidValueException("limits.maxPerKey", "applies to AT_LEAST_ONCE only: its claim leases the tasks"
                    + " of the keys below their limit, and at most once a claim deletes them instead",
                    limits.maxPerKey());
        }
        Checks.between("threads", threads, 1, MAX_THREADS);
        Checks.positive("leaseTimeout", leaseTimeout);
        if (leaseTimeout.compareTo(MIN_LEASE) < 0) { // kept in microseconds: 500 ns was a lease of 0, due again at once
            throw new InvalidValueException("leaseTimeout", "must be at least 1 ms", leaseTimeout);
        }
        if (history != null) {
            Checks.positive("history", history);
            if (mode == DeliveryMode.AT_MOST_ONCE) {
                throw new InvalidValueException("history",
                        "is not kept at most once, whose claim deletes a task before it is handled", history);
            }
        }
    }

    /** The shortest lease: a task's lease is kept in microseconds, and a heartbeat renews it every third of it. */
    static final Duration MIN_LEASE = Duration.ofMillis(1);

    /**
     * The lease a task is claimed for by default. With the heartbeat extending it while the handler
     * runs, it only bounds how long a dead consumer's tasks wait: long enough that a pause of several
     * seconds (a stop-the-world GC, a failover, a saturated database delaying a heartbeat) does not
     * hand a running task out again, short enough that a crash delays its tasks by seconds, not minutes.
     */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    /** At least once, one thread, the experiment's poll settings, default retries, a {@link #DEFAULT_LEASE}
     *  kept by heartbeats, wakeup by polling, and no limits. */
    public static QueueConfig of(QueueLocation location) {
        return new QueueConfig(location, DeliveryMode.AT_LEAST_ONCE, 1, PollSettings.DEFAULT, RetryPolicy.DEFAULT,
                DEFAULT_LEASE, true, Wakeup.POLL, QueueLimits.NONE, null);
    }

    public QueueConfig withLocation(QueueLocation value) {
        return new QueueConfig(value, mode, threads, poll, retry, leaseTimeout, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withMode(DeliveryMode value) {
        return new QueueConfig(location, value, threads, poll, retry, leaseTimeout, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withThreads(int value) {
        return new QueueConfig(location, mode, value, poll, retry, leaseTimeout, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withPoll(PollSettings value) {
        return new QueueConfig(location, mode, threads, value, retry, leaseTimeout, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withBatchSize(int value) {
        return withPoll(poll.withBatchSize(value));
    }

    public QueueConfig withRetry(RetryPolicy value) {
        return new QueueConfig(location, mode, threads, poll, value, leaseTimeout, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withLeaseTimeout(Duration value) {
        return new QueueConfig(location, mode, threads, poll, retry, value, leaseHeartbeat, wakeup, limits, history);
    }

    public QueueConfig withLeaseHeartbeat(boolean value) {
        return new QueueConfig(location, mode, threads, poll, retry, leaseTimeout, value, wakeup, limits, history);
    }

    public QueueConfig withWakeup(Wakeup value) {
        return new QueueConfig(location, mode, threads, poll, retry, leaseTimeout, leaseHeartbeat, value, limits, history);
    }

    public QueueConfig withLimits(QueueLimits value) {
        return new QueueConfig(location, mode, threads, poll, retry, leaseTimeout, leaseHeartbeat, wakeup, value, history);
    }

    /** Keeps finished tasks for {@code value} ({@link #history()}); null: deletes them. */
    public QueueConfig withHistory(Duration value) {
        return new QueueConfig(location, mode, threads, poll, retry, leaseTimeout, leaseHeartbeat, wakeup, limits,
                value);
    }
}
