package io.dbqueue.queue;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The heartbeat of at-least-once batches. While a handler runs, the leases of its tasks are pushed a
 * whole lease ahead once they are a third of a lease old, so a task that runs longer than its lease
 * is not handed out again; a consumer that dies (its process, or the thread running the batch) stops
 * extending, and its tasks reappear one lease later. One timer thread per queue's workers, started
 * with the first batch held; a tick extends every batch that is due in one statement, and holds no
 * connection in between.
 */
final class LeaseKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

    private final DataSource dataSource;
    private final TaskStore store;
    private final QueueLocation queue;
    private final Duration lease;
    private final ClaimLimiter limiter; // null: no in-flight places to extend with the leases
    private final long intervalNanos;
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    // Held while a tick extends: a hold closes only when no tick is extending it, so that an extension
    // cannot land after the batch's answer (and push a retry's backoff out to a whole lease).
    /** How many leases a batch waiting in an executor's queue keeps its leases for, at most ({@link #holdQueued}). */
    static final int MOST_LEASES_QUEUED = 10;

    private final ReentrantLock ticking = new ReentrantLock();
    private volatile ScheduledExecutorService timer; // set once, under this
    private boolean closed; // guarded by this

    LeaseKeeper(DataSource dataSource, TaskStore store, QueueLocation queue, Duration lease, ClaimLimiter limiter) {
        this.limiter = limiter;
        this.dataSource = dataSource;
        this.store = store;
        this.queue = queue;
        this.lease = lease;
        this.intervalNanos = Math.max(1, lease.toNanos() / 3);
    }

    /**
     * Keeps the leases of {@code tasks}, claimed at {@code claimedAt} ({@link System#nanoTime()}),
     * while the calling thread lives and the hold is open.
     */
    Hold hold(List<Task> tasks, long claimedAt) {
        return added(new Hold(tasks, Thread.currentThread(), claimedAt));
    }

    /**
     * Keeps the leases of {@code tasks}, claimed at {@code claimedAt}, while they wait in an executor's queue: until
     * {@link Hold#movedTo} the thread that handles them, for at most {@value #MOST_LEASES_QUEUED} leases. An executor
     * that drops a job it took (a discarding policy, {@code shutdownNow}) never runs it: its tasks come back then.
     */
    Hold holdQueued(List<Task> tasks, long claimedAt) {
        return added(new Hold(tasks, null, claimedAt));
    }

    private Hold added(Hold hold) {
        holds.add(hold);
        if (timer == null) { // every batch passes here: no lock once the timer runs
            startTimer();
        }
        return hold;
    }

    private synchronized void startTimer() {
        if (timer == null && !closed) {
            timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-lease-" + queue));
            long tick = Math.max(1, intervalNanos / 2);
            timer.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.NANOSECONDS);
        }
    }

    private void tick() {
        long now = System.nanoTime();
        holds.removeIf(hold -> hold.ended(now));
        List<Hold> due = new ArrayList<>();
        for (Hold hold : holds) {
            if (now - hold.extendedAt >= intervalNanos) {
                due.add(hold);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        ticking.lock();
        try {
            due.removeIf(hold -> !holds.contains(hold)); // closed meanwhile: answered, not to be extended
            if (!due.isEmpty()) {
                extendDue(due);
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: extending the leases of {} running batches failed; trying again in {} ms: {}", queue,
                    due.size(), TimeUnit.NANOSECONDS.toMillis(intervalNanos / 2), e.toString());
        } finally {
            ticking.unlock();
        }
    }

    private void extendDue(List<Hold> due) {
        List<Task> tasks = new ArrayList<>();
        due.forEach(hold -> tasks.addAll(hold.tasks));
        long start = System.nanoTime();
        extend(tasks);
        due.forEach(hold -> hold.extendedAt = start);
    }

    /**
     * Extends the leases of {@code tasks} now, and their in-flight places under an in-flight limit; returns how many
     * of them were still held by their claims.
     */
    int extend(List<Task> tasks) {
        return Jdbc.autoCommitted(dataSource, "extending leases in " + queue, c -> {
            int extended = store.extendLeases(c, tasks, lease);
            if (limiter != null) {
                limiter.extend(c, tasks);
            }
            return extended;
        });
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** The leases of one running batch. */
    final class Hold implements AutoCloseable {

        private final List<Task> tasks;
        private final long claimedAt;
        private volatile Thread thread; // null while queued; a hold whose thread has died is dropped: nobody answers
        private volatile long extendedAt;

        /** @param tasks the claim's tasks, which nobody changes after the claim */
        private Hold(List<Task> tasks, Thread thread, long claimedAt) {
            this.tasks = tasks;
            this.thread = thread;
            this.claimedAt = claimedAt;
            this.extendedAt = claimedAt;
        }

        /** The batch moved to {@code handler} (an executor's thread), which answers it now. */
        void movedTo(Thread handler) {
            thread = handler;
        }

        /** Whether nobody will answer its tasks: its thread died, or it waited queued too long to be run still. */
        private boolean ended(long now) {
            Thread handler = thread;
            if (handler != null) {
                return !handler.isAlive();
            }
            if (now - claimedAt < lease.toNanos() * MOST_LEASES_QUEUED) {
                return false;
            }
            LOG.warn("{}: a batch of {} tasks waited in the executor's queue for {} leases; its leases are let go",
                    queue, tasks.size(), MOST_LEASES_QUEUED);
            return true;
        }

        /** Stops extending; returns once no extension of this batch is under way. */
        @Override
        public void close() {
            holds.remove(this);
            ticking.lock();
            ticking.unlock();
        }
    }
}
