package io.dbqueue.schedule;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The thread that takes due ticks: it runs {@link Schedules#runDue}, then sleeps until the earliest
 * next tick of the schedules defined here, or the check interval (which finds what other processes
 * changed: a resume, a new definition), whichever comes first; a local definition or resume wakes it.
 * A tick that was due before the round and is still due after it is not waited for (another process
 * holds it, or its enqueue fails here), so that it cannot keep the thread from sleeping.
 */
final class ScheduleTimer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleTimer.class);

    private final Schedules schedules;
    private final Clock clock;
    private final Duration checkInterval;
    private final Thread thread;
    private boolean woken; // guarded by this
    private boolean stopped; // guarded by this

    private ScheduleTimer(Schedules schedules, Clock clock, Duration checkInterval) {
        this.schedules = schedules;
        this.clock = clock;
        this.checkInterval = checkInterval;
        this.thread = DaemonThreads.named("dbq-schedules").newThread(this::run);
    }

    static ScheduleTimer start(Schedules schedules, Clock clock, Duration checkInterval) {
        Checks.positive("checkInterval", checkInterval);
        ScheduleTimer timer = new ScheduleTimer(schedules, clock, checkInterval);
        timer.thread.start();
        return timer;
    }

    synchronized void wake() {
        woken = true;
        notifyAll();
    }

    @Override
    public void close() {
        synchronized (this) {
            stopped = true;
            notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (!isStopped()) {
            Duration wait = checkInterval;
            try {
                Instant before = clock.instant();
                schedules.runDue();
                Instant earliest = schedules.earliestDueAfter(before);
                if (earliest != null) {
                    Duration untilDue = Duration.between(clock.instant(), earliest);
                    wait = untilDue.compareTo(wait) < 0 ? untilDue : wait;
                }
            } catch (RuntimeException e) {
                LOG.warn("looking for due schedule ticks failed: {}", e.toString());
            }
            if (!sleep(wait)) {
                return;
            }
        }
    }

    private synchronized boolean isStopped() {
        return stopped;
    }

    /** Sleeps for {@code wait} (rounded up to the millisecond) unless woken; false once stopped. */
    private synchronized boolean sleep(Duration wait) {
        long deadline = System.nanoTime() + Math.max(0, wait.toNanos());
        while (!woken && !stopped) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                wait((left + 999_999) / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        woken = false;
        return !stopped;
    }
}
