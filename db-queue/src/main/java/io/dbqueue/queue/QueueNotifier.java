package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Tells consumers that a queue has new tasks: a {@link QueueListener} for producers that sends
 * {@code pg_notify('dbq_<table>', queue)} after enqueues, for {@link QueueWakeups} to pass on.
 *
 * <p>NOTIFY takes a cluster-wide lock at commit, so one notification per enqueue would cap the whole
 * server at a few hundred to a thousand commits a second. Notifications are coalesced: at most one
 * per queue per {@code interval}. The first enqueue after a quiet interval is notified at once;
 * enqueues during an interval get one notification at its end, so none waits longer than
 * {@code interval}. Notifications go out on a background thread and their own connection: an
 * enqueue never waits for one, and a failed one is logged and dropped. Wakeups only shorten the
 * wait; consumers still poll, so a lost notification delays a task by at most the poll interval.
 *
 * <p>For an enqueue in the caller's own transaction, the notification may arrive before the caller
 * commits; the consumer then finds the task at the next notification or poll.
 */
public final class QueueNotifier implements QueueListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueNotifier.class);
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);

    private final DataSource dataSource;
    private final long intervalNanos;
    private final ScheduledExecutorService sender;
    private final Map<QueueLocation, Coalescing> queues = new ConcurrentHashMap<>();

    public QueueNotifier(DataSource dataSource) {
        this(dataSource, DEFAULT_INTERVAL);
    }

    public QueueNotifier(DataSource dataSource, Duration interval) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        if (interval == null || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be zero or positive, was " + interval);
        }
        this.intervalNanos = interval.toNanos();
        this.sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "dbq-notifier");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        Coalescing state = queues.computeIfAbsent(queue, q -> new Coalescing());
        long delay;
        synchronized (state) {
            if (state.scheduled) {
                return;
            }
            state.scheduled = true;
            delay = Math.max(0, state.lastSent + intervalNanos - System.nanoTime());
        }
        sender.schedule(() -> send(queue, state), delay, TimeUnit.NANOSECONDS);
    }

    private void send(QueueLocation queue, Coalescing state) {
        synchronized (state) {
            state.scheduled = false;
            state.lastSent = System.nanoTime();
        }
        try {
            Jdbc.autoCommitted(dataSource, "notify " + queue, c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
                    ps.setString(1, WakeupChannel.of(queue.table()));
                    ps.setString(2, queue.queueName());
                    return ps.execute();
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("{}: could not notify consumers of new tasks (they will find them when they poll): {}", queue,
                    e.getMessage());
        }
    }

    /** Stops sending; notifications not yet sent are dropped. */
    @Override
    public void close() {
        sender.shutdownNow();
    }

    private static final class Coalescing {
        boolean scheduled;
        long lastSent = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    }
}
