package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the load enqueues and processes and records its latencies, with no allocation per
 * message: drivers report whole batches. In microseconds: end to end, from the enqueue stamp in the
 * payload to the moment the finish of the batch was committed; the write, from that stamp to the
 * producer's acknowledgement (its commit returned); the read, from that acknowledgement to the
 * finish (0 when the batch was read before its producer heard of the commit). Acknowledgements are
 * kept two minutes, forgotten by one thread at most once a second.
 */
public final class Meter {

    static final long MAX_LATENCY_MICROS = TimeUnit.HOURS.toMicros(1);
    private static final long ACKNOWLEDGEMENT_KEPT_NANOS = TimeUnit.MINUTES.toNanos(2);
    private static final long EVICTION_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LongAdder enqueued = new LongAdder();
    private final LongAdder processed = new LongAdder();
    private final Recorder latency = new Recorder(MAX_LATENCY_MICROS, 3);
    private final Recorder writeLatency = new Recorder(MAX_LATENCY_MICROS, 3);
    private final Recorder readLatency = new Recorder(MAX_LATENCY_MICROS, 3);
    private final Recorder claimTime = new Recorder(MAX_LATENCY_MICROS, 3);
    private final LongAdder claimedTasks = new LongAdder();
    private final Map<Long, Long> acknowledgedAt = new ConcurrentHashMap<>(); // enqueue stamp -> acknowledgement
    private volatile boolean acknowledging; // the load's producers report acknowledgements: reads are measured
    private final AtomicLong lastEviction = new AtomicLong(System.nanoTime());
    private final long initialBacklog;
    private final int fanOut;
    private volatile Cohort cohort; // the messages stamped in the open (or last) window

    /** {@code fanOut}: how many times each message is processed (the groups reading a topic). */
    public Meter(long initialBacklog, int fanOut) {
        this.initialBacklog = initialBacklog;
        this.fanOut = fanOut;
    }

    public void enqueued(int count) {
        enqueued.add(count);
    }

    /** A batch of {@code count} stamped {@code stamp} whose enqueue has just been acknowledged (committed). */
    public void acknowledged(int count, long stamp) {
        long now = System.nanoTime();
        writeLatency.recordValue(micros(now - stamp));
        long last = lastEviction.get();
        if (now - last > EVICTION_INTERVAL_NANOS && lastEviction.compareAndSet(last, now)) { // one thread, once a second
            acknowledgedAt.keySet().removeIf(s -> now - s > ACKNOWLEDGEMENT_KEPT_NANOS);
        }
        acknowledgedAt.put(stamp, now);
        acknowledging = true;
        enqueued.add(count);
    }

    /**
     * A batch of {@code count} about to be sent, stamped {@code stamp} (when it was due): the cohort counts it from
     * now, so that one whose send is slow to be acknowledged is owed, not left out.
     */
    public void due(int count, long stamp) {
        Cohort open = cohort;
        if (open != null) {
            open.due(count, stamp);
        }
    }

    /** A batch whose finish just committed; {@code stamps} are the enqueue stamps of its first {@code count} messages. */
    public void processed(long[] stamps, int count) {
        long now = System.nanoTime();
        long stamp = 0;
        Long acknowledged = null;
        Cohort open = cohort;
        for (int i = 0; i < count; i++) {
            if (stamps[i] != 0) {
                long micros = micros(now - stamps[i]);
                latency.recordValue(micros);
                if (open != null) {
                    open.delivered(stamps[i], micros);
                }
                if (stamps[i] != stamp) { // the messages of a batch share a stamp: one lookup a batch
                    stamp = stamps[i];
                    acknowledged = acknowledgedAt.get(stamp);
                }
                if (acknowledging) {
                    readLatency.recordValue(readMicros(now, stamp, acknowledged));
                }
            }
        }
        processed.add(count);
    }

    /** A claim of the library's that took {@code tasks} in {@code nanos}; one that took none is not counted. */
    public void claimed(int tasks, long nanos) {
        if (tasks > 0) {
            claimTime.recordValue(micros(nanos));
            claimedTasks.add(tasks);
        }
    }

    /**
     * From the acknowledgement to now; 0 for a message read before its producer heard of the commit;
     * for one whose acknowledgement was forgotten (kept two minutes), from its stamp, which the
     * acknowledgement followed by a write's time: an upper bound, not a 0 that would hide a lag.
     */
    private static long readMicros(long now, long stamp, Long acknowledged) {
        if (acknowledged != null) {
            return micros(now - acknowledged);
        }
        return now - stamp > ACKNOWLEDGEMENT_KEPT_NANOS ? micros(now - stamp) : 0;
    }

    private static long micros(long nanos) {
        return Math.min(MAX_LATENCY_MICROS, Math.max(0, nanos / 1000));
    }

    /** Starts following the messages stamped from {@code fromNanos} on to their delivery ({@link Cohort}). */
    void openCohort(long fromNanos) {
        cohort = new Cohort(fromNanos, fanOut);
    }

    /** Follows no message stamped from {@code untilNanos} on; those stamped before are still followed. */
    void closeCohort(long untilNanos) {
        cohort.close(untilNanos);
    }

    /** When the last cohort closed (System.nanoTime); {@link Long#MAX_VALUE} while open or when none was opened. */
    public long cohortClosedNanos() {
        Cohort followed = cohort;
        return followed == null ? Long.MAX_VALUE : followed.until();
    }

    /** Deliveries the cohort still owes; 0 when none was opened. */
    public long cohortUnfinished() {
        Cohort followed = cohort;
        return followed == null ? 0 : followed.unfinished();
    }

    /**
     * The closed cohort's latency, each delivery still owed counted as at least the time since it closed; null when
     * no cohort was opened or nothing in it was due.
     */
    public CohortLatency cohortLatency() {
        Cohort followed = cohort;
        CohortLatency latency = followed == null ? null
                : followed.latency(Math.floor((System.nanoTime() - followed.until()) / 1e6));
        return latency == null || !latency.measured() ? null : latency;
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

    /** The write latencies recorded since the previous call. */
    public Histogram writeLatencySinceLastCall() {
        return writeLatency.getIntervalHistogram();
    }

    /** The times of the claims that took tasks, recorded since the previous call. */
    public Histogram claimTimeSinceLastCall() {
        return claimTime.getIntervalHistogram();
    }

    /** The tasks of every claim counted so far. */
    public long claimedTotal() {
        return claimedTasks.sum();
    }

    /** The read latencies recorded since the previous call. */
    public Histogram readLatencySinceLastCall() {
        return readLatency.getIntervalHistogram();
    }
}
