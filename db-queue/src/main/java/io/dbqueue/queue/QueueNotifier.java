package io.dbqueue.queue;

import io.dbqueue.wakeup.CoalescingNotifier;
import javax.sql.DataSource;
import java.time.Duration;

/**
 * Tells consumers that a queue has new tasks: a {@link QueueListener} for producers that sends
 * {@code pg_notify('dbq_<table>', queue)} after enqueues, for {@link QueueWakeups} to pass on.
 * Notifications are coalesced (at most one per queue per {@code interval}, none waiting longer)
 * and sent on a background thread, as {@link CoalescingNotifier} describes, and only while some
 * consumer's {@link QueueWakeups} wants them (the check is part of the notifying statement).
 * Consumers still poll, so a lost notification delays a task by at most the poll interval.
 *
 * <p>A {@link QueueProducer} given the notifier as such (not only as a listener) sends the first
 * notification after a quiet interval inside the enqueue's own statement and transaction, so the
 * wakeup leaves with the commit, one round trip earlier ({@link CoalescingNotifier#reserveInline}).
 *
 * <p>For an enqueue in the caller's own transaction, the notification may arrive before the caller
 * commits; the consumer then finds the task at the next notification or poll.
 */
public final class QueueNotifier implements QueueListener, AutoCloseable {

    /**
     * At most one notification per queue per 2 ms. A task enqueued within the interval after a
     * notification waits for the next one, so the interval bounds what coalescing adds to its pickup
     * latency; each notification is a commit that waits for no WAL flush, so 500 a second per queue
     * at most cost the server little (docs/performance.md, "Pickup latency", has the measurements).
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(2);

    private final CoalescingNotifier notifier;

    public QueueNotifier(DataSource dataSource) {
        this(dataSource, DEFAULT_INTERVAL);
    }

    public QueueNotifier(DataSource dataSource, Duration interval) {
        this.notifier = CoalescingNotifier.toListeners(dataSource, interval);
    }

    /** Whether an enqueue about to commit on its own should carry this queue's notification itself. */
    boolean reserveInline(QueueLocation queue) {
        return notifier.reserveInline(WakeupChannel.of(queue.table()), queue.queueName());
    }

    void sentInline(boolean notified) {
        notifier.sentInline(notified);
    }

    void releaseInline() {
        notifier.releaseInline();
    }

    /** Notifications sent so far; none are sent, or counted, while no consumer wants them. */
    public long sent() {
        return notifier.sent();
    }

    /** Notifications not sent because no consumer wanted them. */
    public long skipped() {
        return notifier.skipped();
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        notifier.notify(WakeupChannel.of(queue.table()), queue.queueName());
    }

    /** Stops sending; notifications not yet sent are dropped. */
    @Override
    public void close() {
        notifier.close();
    }
}
