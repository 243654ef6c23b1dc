package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the load enqueues and processes and records end-to-end latency, with no allocation
 * per message: drivers report whole batches. Latency is recorded in microseconds from the enqueue
 * stamp in the payload to the moment the finish of the batch was committed.
 */
public final class Meter {

    private static final long MAX_LATENCY_MICROS = TimeUnit.HOURS.toMicros(1);

    private final LongAdder enqueued = new LongAdder();
    private final LongAdder processed = new LongAdder();
    private final Recorder latency = new Recorder(MAX_LATENCY_MICROS, 3);
    private final long initialBacklog;
    private final int fanOut;

    /** {@code fanOut}: how many times each message is processed (the groups reading a topic). */
    public Meter(long initialBacklog, int fanOut) {
        this.initialBacklog = initialBacklog;
        this.fanOut = fanOut;
    }

    public void enqueued(int count) {
        enqueued.add(count);
    }

    /** A batch whose finish just committed; {@code stamps} are the enqueue stamps of its first {@code count} messages. */
    public void processed(long[] stamps, int count) {
        long now = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (stamps[i] != 0) {
                latency.recordValue(Math.min(MAX_LATENCY_MICROS, Math.max(0, (now - stamps[i]) / 1000)));
            }
        }
        processed.add(count);
    }

    /**
     * Messages enqueued (or pre-filled) and not yet processed, counted once per reader of a topic:
     * producers hold back when it is too high.
     */
    public long waiting() {
        return (initialBacklog + enqueued.sum()) * fanOut - processed.sum();
    }

    public long enqueuedTotal() {
        return enqueued.sum();
    }

    public long processedTotal() {
        return processed.sum();
    }

    /** The latencies recorded since the previous call; the first call after the warm-up discards the warm-up's. */
    public Histogram latencySinceLastCall() {
        return latency.getIntervalHistogram();
    }
}
