package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * The measured part of a repetition. What the meter counted before {@link #open} (the warm-up) is
 * left out. The owner calls {@link #tick} about every 100 ms and {@link #closeSecond} about once a
 * second; latency is folded into the second's, the current bucket's and the window's histograms as
 * it comes, so memory does not grow with the window's length.
 */
public final class Window {

    /** The experiment's latency chart had a point per 10,000 messages: the bucket size when no estimate exists. */
    static final long DEFAULT_BUCKET = 10_000;
    private static final int BUCKETS = 20;

    private final Meter meter;
    private final long bucketSize;
    private final long startNanos;
    private final long enqueuedAtStart;
    private final long processedAtStart;
    private final List<SecondSample> series = new ArrayList<>();
    private final List<LatencyBucket> buckets = new ArrayList<>();
    private final Histogram second = new Histogram(3);
    private final Histogram bucket = new Histogram(3);
    private final Histogram total = new Histogram(3);
    private final Histogram writes = new Histogram(3);
    private final Histogram reads = new Histogram(3);
    private final Histogram claims = new Histogram(3);
    private final long claimedAtStart;
    private long secondEnqueuedStart;
    private long secondProcessedStart;
    private long nextBoundary;

    private Window(Meter meter, long bucketSize) {
        this.meter = meter;
        this.bucketSize = bucketSize;
        meter.latencySinceLastCall();
        meter.writeLatencySinceLastCall();
        meter.readLatencySinceLastCall();
        meter.claimTimeSinceLastCall();
        this.claimedAtStart = meter.claimedTotal();
        this.startNanos = System.nanoTime();
        meter.openCohort(startNanos);
        this.enqueuedAtStart = meter.enqueuedTotal();
        this.processedAtStart = meter.processedTotal();
        this.secondEnqueuedStart = enqueuedAtStart;
        this.secondProcessedStart = processedAtStart;
        this.nextBoundary = bucketSize;
    }

    /** Opens a window expected to see about {@code expectedMessages} (0: unknown), which sets the bucket size. */
    public static Window open(Meter meter, long expectedMessages) {
        long size = expectedMessages > 0 ? niceStep(Math.max(1, expectedMessages / BUCKETS)) : DEFAULT_BUCKET;
        return new Window(meter, size);
    }

    public long startNanos() {
        return startNanos;
    }

    public long processed() {
        return meter.processedTotal() - processedAtStart;
    }

    /** Folds in the latency recorded since the last tick and closes the bucket once enough messages are processed. */
    public void tick() {
        Histogram latency = meter.latencySinceLastCall();
        second.add(latency);
        bucket.add(latency);
        total.add(latency);
        writes.add(meter.writeLatencySinceLastCall());
        reads.add(meter.readLatencySinceLastCall());
        claims.add(meter.claimTimeSinceLastCall());
        long processed = processed();
        if (processed >= nextBoundary && bucket.getTotalCount() > 0) {
            closeBucket(processed);
            nextBoundary = (processed / bucketSize + 1) * bucketSize;
        }
    }

    /** Ends the current second of the series. */
    public void closeSecond() {
        tick();
        long enqueued = meter.enqueuedTotal();
        long processed = meter.processedTotal();
        LatencySummary summary = LatencySummary.of(second);
        series.add(new SecondSample(Math.round(seconds() * 1000) / 1000.0, enqueued - secondEnqueuedStart,
                processed - secondProcessedStart, summary.p50(), summary.p99(), summary.max(), meter.waiting()));
        second.reset();
        secondEnqueuedStart = enqueued;
        secondProcessedStart = processed;
    }

    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Ends the window: the last (partial) second and bucket are closed. */
    public Measurement close(boolean interrupted) {
        meter.closeCohort(System.nanoTime());
        closeSecond();
        if (bucket.getTotalCount() > 0) {
            closeBucket(processed());
        }
        SecondSample last = series.get(series.size() - 1);
        return new Measurement(last.second(), secondEnqueuedStart - enqueuedAtStart,
                secondProcessedStart - processedAtStart, LatencySummary.of(total), LatencySummary.of(writes),
                LatencySummary.of(reads), ClaimSummary.of(claims, meter.claimedTotal() - claimedAtStart),
                List.copyOf(series), List.copyOf(buckets), interrupted);
    }

    private void closeBucket(long processed) {
        LatencySummary s = LatencySummary.of(bucket);
        buckets.add(new LatencyBucket(processed, s.min(), s.avg(), s.max(), s.p95(), s.p99()));
        bucket.reset();
    }

    /** The smallest 1, 2 or 5 times a power of ten that is at least {@code value}. */
    static long niceStep(long value) {
        long power = 1;
        while (true) {
            for (long factor : new long[]{1, 2, 5}) {
                if (factor * power >= value) {
                    return factor * power;
                }
            }
            power *= 10;
        }
    }
}
