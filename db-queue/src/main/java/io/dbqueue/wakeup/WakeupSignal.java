package io.dbqueue.wakeup;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Lets idle workers wait for their poll interval, or less when someone signals new work or a state
 * change: {@link #signalAll} wakes every worker, {@link #signalOne} one. A single wakeup that finds no
 * worker waiting is kept for the next one to wait, up to as many as there are workers.
 *
 * <p>{@link #signalOne} wakes the worker that went idle last: its thread and its pooled connection
 * were in use a moment ago, while the one idle longest may hold a connection the pool checks with a
 * round trip before handing it out (HikariCP does past 500 ms idle), and at a low rate the same few
 * workers then take every task.
 *
 * <p>{@link #signalOneAt} wakes one worker at a given time, for a task coming due then: one waiting
 * worker (the holder) bounds its wait by the earliest such time, the others keep theirs, so a due
 * time wakes one worker, not all of them. A holder that leaves early hands it on to another waiting
 * worker; with none waiting, the next to wait takes it, at once if it has passed. Times within
 * {@link #SAME_DUE_NANOS} of one kept already are that one: one claim takes the tasks due together.
 */
public final class WakeupSignal {

    /** Due times closer than this to one another wake one worker. */
    static final long SAME_DUE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The most due times kept; beyond it the latest are forgotten (the workers' poll still finds their tasks). */
    static final int MAX_DUE_TIMES = 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<Condition> idle = new ArrayDeque<>(); // workers in awaitSince, the latest last
    private final int maxPending;
    // Written under the lock; read without it by generation(), which every worker cycle calls.
    private volatile long generation;
    private int pending; // single wakeups not yet taken by a worker
    // Times of signalOneAt not yet taken, by System.nanoTime() compared as it asks, by their difference.
    private final TreeSet<Long> dueTimes = new TreeSet<>((a, b) -> Long.signum(a - b));
    private Condition dueHolder; // the waiting worker that wakes at the earliest; null: the next to wait

    /** For {@code workers} waiting workers at most. */
    public WakeupSignal(int workers) {
        this.maxPending = Math.max(1, workers);
    }

    /** Wakes one waiting worker, or the next one to wait. */
    public void signalOne() {
        lock.lock();
        try {
            if (pending < maxPending) {
                pending++;
            }
            Condition latest = idle.pollLast(); // taken off, so that the next wakeup goes to another worker
            if (latest != null) {
                latest.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wakes one waiting worker at {@code nanoTime} ({@link System#nanoTime()}), or the next one to wait
     * if none waits then.
     */
    public void signalOneAt(long nanoTime) {
        lock.lock();
        try {
            Long before = dueTimes.floor(nanoTime);
            Long after = dueTimes.ceiling(nanoTime);
            if ((before != null && nanoTime - before < SAME_DUE_NANOS) || (after != null && after - nanoTime < SAME_DUE_NANOS)) {
                return;
            }
            dueTimes.add(nanoTime);
            if (dueTimes.size() > MAX_DUE_TIMES) {
                dueTimes.pollLast();
            }
            if (dueTimes.first() == nanoTime) {
                Condition holder = dueHolder != null ? dueHolder : idle.peekLast();
                if (holder != null) {
                    holder.signal(); // it waits again, until the new earliest time
                }
            }
        } finally {
            lock.unlock();
        }
    }

    public void signalAll() {
        lock.lock();
        try {
            generation++;
            idle.forEach(Condition::signal);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How many signals there have been; pass it to {@link #awaitSince} to count those that come after. */
    public long generation() {
        return generation;
    }

    /**
     * Waits up to {@code nanos}, returning early on a {@link #signalAll} after {@code seen}, on a
     * {@link #signalOne}, or at a {@link #signalOneAt} time it holds; at once if a wakeup came already
     * or a due time has passed: a wakeup sent while the worker was claiming is not lost.
     */
    public void awaitSince(long seen, long nanos) throws InterruptedException {
        lock.lock();
        Condition mine = lock.newCondition();
        long deadline = System.nanoTime() + nanos;
        try {
            while (generation == seen && pending == 0) {
                long now = System.nanoTime();
                if (!dueTimes.isEmpty() && (dueHolder == null || dueHolder == mine)) {
                    if (dueTimes.first() - now <= 0) { // due: this worker takes it
                        dueTimes.pollFirst();
                        dueHolder = null;
                        return;
                    }
                    dueHolder = mine;
                }
                long left = deadline - now;
                if (left <= 0) {
                    return;
                }
                if (!idle.contains(mine)) { // first time round, or woken for a wakeup another worker took
                    idle.addLast(mine);
                }
                mine.awaitNanos(dueHolder == mine ? Math.min(left, dueTimes.first() - now) : left);
            }
            if (generation == seen) {
                pending--;
            }
        } finally {
            idle.removeLastOccurrence(mine);
            if (dueHolder == mine) {
                dueHolder = null;
            }
            if (dueHolder == null && !dueTimes.isEmpty()) { // another waiting worker holds the next due time
                Condition next = idle.peekLast();
                if (next != null) {
                    next.signal();
                }
            }
            lock.unlock();
        }
    }

    /** Waits, without a time limit, while {@code condition} holds; it is re-checked on every signal. */
    public void awaitWhile(BooleanSupplier condition) throws InterruptedException {
        lock.lock();
        try {
            while (condition.getAsBoolean()) {
                changed.await(1, TimeUnit.SECONDS);
            }
        } finally {
            lock.unlock();
        }
    }
}
