package io.dbqueue.wakeup;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        awaitAliveAtMost(1, first, second);
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

    @Test
    void aDueTimeWakesOneOfTwoWaitingWorkersThen() throws Exception {
        WakeupSignal signal = new WakeupSignal(2);
        Thread first = idleWorker(signal);
        Thread second = idleWorker(signal);
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        signal.signalOneAt(due);
        awaitAliveAtMost(1, first, second);
        assertTrue(System.nanoTime() - due >= 0, "not before the due time");
        assertTrue(first.isAlive() != second.isAlive(), "exactly one worker woke");
        Thread still = first.isAlive() ? first : second;
        awaitWaiting(still);
        assertTrue(still.isAlive(), "the due time was taken");
        signal.signalAll();
    }

    @Test
    void anEarlierDueTimeCutsTheHoldersWaitShort() throws Exception {
        WakeupSignal signal = new WakeupSignal(1);
        Thread worker = idleWorker(signal);
        signal.signalOneAt(System.nanoTime() + LONG / 2);
        awaitWaiting(worker);
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        signal.signalOneAt(due);
        worker.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(worker.isAlive(), "woke for the earlier time");
        assertTrue(System.nanoTime() - due >= 0);
    }

    @Test
    void aDueTimeWithNoWorkerWaitingIsTakenByTheNextAtOnceOncePassed() throws Exception {
        WakeupSignal signal = new WakeupSignal(2);
        signal.signalOneAt(System.nanoTime());
        Thread first = waiter(signal);
        first.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(first.isAlive(), "the passed due time woke the next worker to wait");
        Thread second = idleWorker(signal);
        assertTrue(second.isAlive(), "one due time wakes one worker");
        signal.signalAll();
    }

    @Test
    void twoDueTimesWakeAWorkerEachAndOnesWithinAMillisecondOne() throws Exception {
        WakeupSignal signal = new WakeupSignal(3);
        Thread first = idleWorker(signal);
        Thread second = idleWorker(signal);
        Thread third = idleWorker(signal);
        long now = System.nanoTime();
        signal.signalOneAt(now + TimeUnit.MILLISECONDS.toNanos(100));
        signal.signalOneAt(now + TimeUnit.MILLISECONDS.toNanos(50));
        signal.signalOneAt(now + TimeUnit.MILLISECONDS.toNanos(50) + WakeupSignal.SAME_DUE_NANOS / 2);
        awaitAliveAtMost(1, first, second, third);
        assertEquals(1, Arrays.stream(new Thread[]{first, second, third}).filter(Thread::isAlive).count(),
                "two due times woke two workers");
        assertTrue(System.nanoTime() - now >= TimeUnit.MILLISECONDS.toNanos(100),
                "the second worker woke at the later time, not for the time within a millisecond of the first");
        signal.signalAll();
    }

    /** Until no more than {@code n} of {@code threads} are alive; fails after 30 s. */
    private static void awaitAliveAtMost(int n, Thread... threads) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Arrays.stream(threads).filter(Thread::isAlive).count() > n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("more than " + n + " workers still waiting after 30 s");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aHolderWokenForAnotherReasonHandsItsDueTimeOn() throws Exception {
        WakeupSignal signal = new WakeupSignal(2);
        Thread first = idleWorker(signal);
        Thread second = idleWorker(signal);
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        signal.signalOneAt(due); // the worker idle last holds it
        signal.signalOne(); // and is woken at once
        awaitAliveAtMost(1, first, second);
        Thread other = first.isAlive() ? first : second;
        other.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(other.isAlive(), "the other worker woke for the due time");
        assertTrue(System.nanoTime() - due >= 0, "at the due time, not with the first");
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

    /** A worker that has gone idle: waiting on {@code signal}, in the order of these calls. */
    private static Thread idleWorker(WakeupSignal signal) {
        Thread t = waiter(signal);
        awaitWaiting(t);
        return t;
    }

    /** Until the thread is parked in its timed wait (or has finished); fails after 30 s. */
    private static void awaitWaiting(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (t.isAlive() && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(t.getName() + " not waiting after 30 s but " + t.getState());
            }
            Thread.onSpinWait();
        }
    }
}
