package io.dbqueue.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/** Lets idle workers wait for their poll interval, or less when someone signals new work or a state change. */
public final class WakeupSignal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // Written under the lock; read without it by generation(), which every worker cycle calls.
    private volatile long generation;

    public void signalAll() {
        lock.lock();
        try {
            generation++;
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
     * Waits up to {@code nanos}, returning early on a signal after {@code seen}, at once if one came
     * already: a wakeup sent while the worker was claiming is not lost.
     */
    public void awaitSince(long seen, long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (generation == seen && left > 0) {
                left = changed.awaitNanos(left);
            }
        } finally {
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
