package io.dbqueue.bench.producers;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.run.Phase;
import io.dbqueue.bench.run.Range;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.HdrHistogram.Recorder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Many threads each enqueueing one message at a time, as the request threads of a web service do:
 * {@code threads} threads call a single enqueue in a loop for a phase, once on a {@link QueueProducer}
 * (a statement and a commit per message) and once on a {@link CoalescingProducer} (concurrent calls
 * merged into one statement per batch), on the same pool. Each call waits for its commit.
 */
public final class CoalescingComparison {

    private static final QueueTable TABLE = new QueueTable("bench_coalescing", Layout.DBQ_SEQ);
    private static final String PAYLOAD = "x".repeat(100);
    private static final long MAX_CALL_MICROS = Duration.ofMinutes(1).toNanos() / 1000;

    private final HikariDataSource pool;
    private final int threads;
    private final Duration linger;
    private final int maxBatch;
    private final Duration phase;
    private final int repeat;

    public CoalescingComparison(HikariDataSource pool, int threads, Duration linger, int maxBatch, Duration phase,
                                int repeat) {
        this.pool = pool;
        this.threads = threads;
        this.linger = linger;
        this.maxBatch = maxBatch;
        this.phase = phase;
        this.repeat = repeat;
    }

    /** The two ways' names, in run order. */
    public List<String> ways() {
        return List.of("single enqueue", "coalescing producer (linger " + linger.toMillis() + " ms, max batch "
                + maxBatch + ")");
    }

    public List<CoalescingSample> run(Consumer<String> progress) throws Exception {
        Map<String, List<double[]>> results = new LinkedHashMap<>(); // way -> [rate, p50, p99] per run
        for (int r = 0; r < repeat; r++) {
            for (String way : ways()) {
                double[] result = measure(way.startsWith("coalescing"));
                results.computeIfAbsent(way, w -> new ArrayList<>()).add(result);
                progress.accept(String.format("%s, run %d/%d: %.0f messages/s, p50 %.1f ms, p99 %.1f ms", way, r + 1,
                        repeat, result[0], result[1], result[2]));
            }
        }
        Schema.drop(pool, TABLE);
        List<CoalescingSample> samples = new ArrayList<>();
        results.forEach((way, runs) -> samples.add(new CoalescingSample(way, range(runs, 0), range(runs, 1),
                range(runs, 2), runs.stream().map(run -> run[0]).toList())));
        return samples;
    }

    private static Range range(List<double[]> runs, int index) {
        return Range.of(runs.stream().map(run -> run[index]).toList());
    }

    /** One phase: messages committed per second, and the calls' p50 and p99 in milliseconds. */
    private double[] measure(boolean coalescing) throws Exception {
        Schema.recreate(pool, TABLE);
        QueueLocation location = TABLE.queue("coalescing");
        QueueProducer single = new QueueProducer(pool, location);
        try (CoalescingProducer coalesced = new CoalescingProducer(pool, location, linger, maxBatch)) {
            ToLongFunction<String> enqueue = coalescing ? coalesced::enqueue : single::enqueue;
            return callsFor(enqueue);
        }
    }

    private double[] callsFor(ToLongFunction<String> enqueue) throws InterruptedException {
        AtomicLong enqueued = new AtomicLong();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Recorder calls = new Recorder(3);
        double seconds = Phase.run(threads, "bench-caller", phase, () -> {
            long start = System.nanoTime();
            try {
                enqueue.applyAsLong(PAYLOAD);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
                return;
            }
            calls.recordValue(Math.min(MAX_CALL_MICROS, (System.nanoTime() - start) / 1000));
            enqueued.incrementAndGet();
        });
        if (failure.get() != null) {
            throw failure.get();
        }
        var histogram = calls.getIntervalHistogram();
        return new double[]{enqueued.get() / seconds, histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getValueAtPercentile(99) / 1000.0};
    }
}
