package io.dbqueue.wakeup;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends {@code pg_notify(channel, payload)}, at most once per channel and payload per interval.
 *
 * <p>NOTIFY takes a cluster-wide lock at commit, so one notification per write would cap the whole
 * server at a few hundred to a thousand commits a second. The first request after a quiet interval
 * is sent at once; requests during an interval get one notification at its end, so none waits
 * longer than the interval. Notifications go out on a background thread and their own connection:
 * a writer never waits for one, and a failed one is logged and dropped (readers still poll). A
 * notification's transaction commits without waiting for the WAL flush: it carries no data (a
 * notification lost with the server only leaves readers to poll), and waiting a flush for each one
 * would both delay the wakeup and cap the one sending thread at one notification per flush.
 *
 * <p>Made {@link #toListeners} it notifies only channels some listener holds the {@link ListenerPresence}
 * lock of, in the same statement.
 */
public final class CoalescingNotifier implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CoalescingNotifier.class);
    private static final String NOTIFY = "SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?)";

    private final DataSource dataSource;
    private final long intervalNanos;
    private final ScheduledExecutorService sender;
    private final Map<Target, Coalescing> targets = new ConcurrentHashMap<>();
    private final boolean onlyToListeners;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicBoolean inlineFree = new AtomicBoolean(true);

    /** Notifies every channel asked for. */
    public CoalescingNotifier(DataSource dataSource, Duration interval) {
        this(dataSource, interval, false);
    }

    /** Notifies only channels whose listeners announce themselves with {@link ListenerPresence#hold}. */
    public static CoalescingNotifier toListeners(DataSource dataSource, Duration interval) {
        return new CoalescingNotifier(dataSource, interval, true);
    }

    private CoalescingNotifier(DataSource dataSource, Duration interval, boolean onlyToListeners) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.onlyToListeners = onlyToListeners;
        Checks.notNegative("interval", interval);
        this.intervalNanos = interval.toNanos();
        this.sender = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-notifier"));
    }

    public void notify(String channel, String payload) {
        Target target = new Target(channel, payload);
        Coalescing state = targets.computeIfAbsent(target, t -> new Coalescing());
        long delay;
        synchronized (state) {
            if (state.scheduled) {
                return;
            }
            state.scheduled = true;
            delay = Math.max(0, state.lastSent + intervalNanos - System.nanoTime());
        }
        try {
            sender.schedule(() -> send(target, state), delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // Closed meanwhile: the write this follows stands, and its readers find it when they next poll.
            synchronized (state) {
                state.scheduled = false;
            }
        }
    }

    /**
     * For a writer about to commit on its own: whether it should send this channel's notification in
     * its own transaction ({@link ListenerPresence#NOTIFY_IN_TRANSACTION}), so that the wakeup leaves
     * with the commit instead of a round trip later. True for the first write after a quiet interval,
     * which then counts as the interval's notification; writes within the interval get the trailing
     * one of {@link #notify}. A writer given true reports with {@link #sentInline} whether it was sent,
     * and calls {@link #releaseInline} once its transaction is over.
     *
     * <p>A notifying transaction holds PostgreSQL's notification lock, one for the whole cluster, from
     * before its commit until after it, and the writer's commit waits for its WAL flush; so at most
     * one of this notifier's writers at a time notifies inline, and the others leave it to the
     * background thread, whose commits do not wait for a flush.
     */
    public boolean reserveInline(String channel, String payload) {
        if (!inlineFree.compareAndSet(true, false)) {
            return false;
        }
        Coalescing state = targets.computeIfAbsent(new Target(channel, payload), t -> new Coalescing());
        synchronized (state) {
            long now = System.nanoTime();
            if (state.scheduled || now - state.lastSent < intervalNanos) {
                inlineFree.set(true);
                return false;
            }
            state.lastSent = now;
            return true;
        }
    }

    /** Ends a reservation of {@link #reserveInline}, whether its transaction committed or not. */
    public void releaseInline() {
        inlineFree.set(true);
    }

    /** Counts a notification a writer sent, or skipped for want of listeners, in its own transaction. */
    public void sentInline(boolean notified) {
        (notified ? sent : skipped).incrementAndGet();
    }

    private void send(Target target, Coalescing state) {
        synchronized (state) {
            state.scheduled = false;
            state.lastSent = System.nanoTime();
        }
        try {
            boolean notified = Jdbc.autoCommitted(dataSource, "notify " + target, c -> {
                try (PreparedStatement ps = c.prepareStatement(onlyToListeners ? ListenerPresence.NOTIFY_IF_PRESENT : NOTIFY)) {
                    if (onlyToListeners) {
                        ListenerPresence.bindNotify(ps, 1, target.channel(), target.payload());
                    } else {
                        ps.setString(1, target.channel());
                        ps.setString(2, target.payload());
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next();
                    }
                }
            });
            (notified ? sent : skipped).incrementAndGet();
        } catch (RuntimeException e) {
            LOG.warn("could not notify {} (readers will find the new rows when they poll): {}", target, e.getMessage());
        }
    }

    /** Notifications sent so far (not counting those skipped because nobody listened). */
    public long sent() {
        return sent.get();
    }

    /** Notifications not sent because no listener wanted them. */
    public long skipped() {
        return skipped.get();
    }

    /** Stops sending; notifications not yet sent are dropped. */
    @Override
    public void close() {
        sender.shutdownNow();
    }

    private record Target(String channel, String payload) {
        @Override
        public String toString() {
            return channel + "/" + payload;
        }
    }

    private static final class Coalescing {
        boolean scheduled;
        long lastSent = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    }
}
