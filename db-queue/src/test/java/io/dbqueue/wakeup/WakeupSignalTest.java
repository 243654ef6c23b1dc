package io.dbqueue.wakeup;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One wakeup wakes one waiting worker; one that finds none waiting is kept for the next. */
class WakeupSignalTest {

    private static final long LONG = TimeUnit.MINUTES.toNanos(10);

    @Test
    void signalOneWakesOneOfTwoWaitingWorkers() throws Exception {
        WakeupSignal signal = new WakeupSignal(2);
        Thread first = waiter(signal);
        Thread second = waiter(signal);
        awaitWaiting(first);
        awaitWaiting(second);

        signal.signalOne();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (first.isAlive() && second.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(first.isAlive() != second.isAlive(), "exactly one worker woke");
        Thread still = first.isAlive() ? first : second;
        awaitWaiting(still);

        signal.signalOne();
        still.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(still.isAlive(), "the second wakeup woke the other worker");
    }

    @Test
    void theWorkerIdleShortestIsWokenFirst() throws Exception {
        WakeupSignal signal = new WakeupSignal(2);
        Thread longest = idleWorker(signal);
        Thread latest = idleWorker(signal);
        signal.signalOne();
        latest.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(latest.isAlive(), "the worker that went idle last took the wakeup");
        assertTrue(longest.isAlive());
        signal.signalAll();
        longest.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(longest.isAlive());
    }

    @Test
    void twoQuickWakeupsWakeTwoWorkers() throws Exception {
        WakeupSignal signal = new WakeupSignal(3);
        Thread first = idleWorker(signal);
        Thread second = idleWorker(signal);
        signal.signalOne();
        signal.signalOne();
        first.join(TimeUnit.SECONDS.toMillis(30));
        second.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(first.isAlive() || second.isAlive(), "each wakeup went to a different worker");
    }

    @Test
    void aWakeupWithNoWorkerWaitingIsKeptForTheNext() throws Exception {
        WakeupSignal signal = new WakeupSignal(4);
        signal.signalOne();
        Thread worker = waiter(signal);
        worker.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(worker.isAlive());
    }

    @Test
    void keptWakeupsAreBoundedByTheWorkers() throws Exception {
        WakeupSignal signal = new WakeupSignal(1);
        signal.signalOne();
        signal.signalOne();
        Thread first = waiter(signal);
        first.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(first.isAlive());
        Thread second = idleWorker(signal);
        assertTrue(second.isAlive(), "only one wakeup was kept for one worker");
        signal.signalAll();
        second.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(second.isAlive());
    }

    private static Thread waiter(WakeupSignal signal) {
        long seen = signal.generation();
        Thread t = new Thread(() -> {
            try {
                signal.awaitSince(seen, LONG);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Until the thread is parked in its timed wait (or has finished). */
    /** A worker that has gone idle: waiting on {@code signal}, in the order of these calls. */
    private static Thread idleWorker(WakeupSignal signal) {
        Thread t = waiter(signal);
        awaitWaiting(t);
        return t;
    }

    private static void awaitWaiting(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (t.isAlive() && t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
