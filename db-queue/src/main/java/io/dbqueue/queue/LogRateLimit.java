package io.dbqueue.queue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * At most {@code permits} log lines per key in each window of {@code window}, the first window starting at the key's
 * first line; the lines over it are counted, and the count is handed to the first line let through after them, to be
 * reported once. Thread-safe.
 */
final class LogRateLimit {

    /** @param log whether to log the line; {@code suppressedBefore}: lines of its key dropped since the last logged */
    record Decision(boolean log, long suppressedBefore) {
    }

    private static final class Window {
        long start;
        int used;
        long suppressed;

        Window(long start) {
            this.start = start;
        }
    }

    private final int permits;
    private final long windowNanos;
    private final LongSupplier clock;
    private final Map<Object, Window> windows = new ConcurrentHashMap<>();

    /** @param clock nanoseconds, as {@link System#nanoTime()} */
    LogRateLimit(int permits, Duration window, LongSupplier clock) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, was " + permits);
        }
        this.permits = permits;
        this.windowNanos = window.toNanos();
        this.clock = clock;
    }

    int permits() {
        return permits;
    }

    Duration window() {
        return Duration.ofNanos(windowNanos);
    }

    Decision acquire(Object key) {
        long now = clock.getAsLong();
        Window window = windows.computeIfAbsent(key, k -> new Window(now));
        synchronized (window) {
            if (now - window.start >= windowNanos) {
                window.start = now;
                window.used = 0;
            }
            if (window.used >= permits) {
                window.suppressed++;
                return new Decision(false, 0);
            }
            window.used++;
            long suppressed = window.suppressed;
            window.suppressed = 0;
            return new Decision(true, suppressed);
        }
    }
}
