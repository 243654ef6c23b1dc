package io.dbqueue.queue;

import java.time.Duration;

/**
 * The state of a queue's {@link Wakeup#ADAPTIVE} workers: listening for notifications, or polling
 * tightly because nearly every claim comes back full while every worker is busy (the workers are
 * saturated, so a notification could only wake a busy worker, and the producers' NOTIFY would be
 * pure cost). A full claim made while some worker idles is no sign of saturation: with small
 * batches, a burst that idle workers can take fills every claim.
 *
 * <p>It judges windows of {@link #WINDOW}: it starts polling after two windows in a row in which at
 * least {@value #MIN_CLAIMS} claims were made and {@value #SATURATED_PERCENT} % or more came back
 * full with every worker busy, and listens again after two windows in a row with fewer than
 * {@value #KEEPING_UP_PERCENT} % such claims (a window without claims counts as keeping up). The gap between the two thresholds and the
 * two-window rule keep it from flapping. After it starts listening it polls tightly for
 * {@link #HANDOVER} more, the time its listener takes to tell producers it wants notifications again.
 * Thread-safe; the clock is passed in so that the rules can be tested.
 */
final class AdaptiveWakeup {

    static final Duration WINDOW = Duration.ofMillis(500);
    static final Duration HANDOVER = Duration.ofSeconds(1);
    static final int MIN_CLAIMS = 20;
    static final int SATURATED_PERCENT = 90;
    static final int KEEPING_UP_PERCENT = 50;

    private long windowStart;
    private int claims;
    private int full;
    private int windowsAgainst; // consecutive windows that argue for the other state
    private boolean polling;
    private long listeningSince;
    private long switches;

    AdaptiveWakeup(long nowNanos) {
        this.windowStart = nowNanos;
        this.listeningSince = nowNanos - HANDOVER.toNanos();
    }

    /** Records a claim of {@code claimed} tasks out of {@code batchSize}; {@code allBusy}: no worker was idle. */
    synchronized void claimed(int claimed, int batchSize, boolean allBusy, long nowNanos) {
        closeWindows(nowNanos);
        claims++;
        if (claimed >= batchSize && allBusy) {
            full++;
        }
    }

    /** Whether the workers want notifications now. */
    synchronized boolean listening(long nowNanos) {
        closeWindows(nowNanos);
        return !polling;
    }

    /** Whether an idle worker should poll again after the tight interval rather than wait for a notification. */
    synchronized boolean pollTightly(long nowNanos) {
        closeWindows(nowNanos);
        return polling || nowNanos - listeningSince < HANDOVER.toNanos();
    }

    /** How often it has changed state. */
    synchronized long switches() {
        return switches;
    }

    private void closeWindows(long nowNanos) {
        long window = WINDOW.toNanos();
        for (int judged = 0; nowNanos - windowStart >= window; judged++) {
            if (judged == 3) { // the windows after the first were empty; more of them would change nothing
                windowStart += (nowNanos - windowStart) / window * window;
                return;
            }
            judge(nowNanos);
            windowStart += window;
        }
    }

    private void judge(long nowNanos) {
        boolean saturated = claims >= MIN_CLAIMS && full * 100L >= claims * (long) SATURATED_PERCENT;
        boolean keepingUp = full * 100L < claims * (long) KEEPING_UP_PERCENT || claims == 0;
        boolean against = polling ? keepingUp : saturated;
        windowsAgainst = against ? windowsAgainst + 1 : 0;
        if (windowsAgainst >= 2) {
            polling = !polling;
            windowsAgainst = 0;
            switches++;
            if (!polling) {
                listeningSince = nowNanos;
            }
        }
        claims = 0;
        full = 0;
    }
}
