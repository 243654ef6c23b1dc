package io.dbqueue.bench.handlers;

import io.dbqueue.bench.run.Phase;
import io.dbqueue.bench.run.Range;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Schema;
import com.zaxxer.hikari.HikariDataSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Producers and slow handlers in one application on one pool, as the issue of slow handlers puts
 * it: {@value #PRODUCERS} producer threads enqueue batches of 10 for a phase alone, then next to
 * {@value #WORKERS} workers whose handler takes {@code handlerTime} per batch, at least once (no
 * connection held while the handler runs), then exactly once (the handler runs inside the claim's
 * transaction, holding its connection). The pool has {@code poolSize} connections and a short
 * connection timeout, so a producer that cannot get one fails instead of waiting long.
 */
public final class SlowHandlerComparison {

    public static final int PRODUCERS = 2;
    public static final int WORKERS = 14;
    private static final int BATCH = 10;
    private static final QueueTable TABLE = new QueueTable("bench_slow_handlers", Layout.DBQ_SEQ);
    private static final String PAYLOAD = "x".repeat(100);

    private final HikariDataSource pool;
    private final Duration phase;
    private final Duration handlerTime;
    private final int repeat;

    public SlowHandlerComparison(HikariDataSource pool, Duration phase, Duration handlerTime, int repeat) {
        this.pool = pool;
        this.phase = phase;
        this.handlerTime = handlerTime;
        this.repeat = repeat;
    }

    public List<SlowHandlerSample> run(Consumer<String> progress) throws Exception {
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, Long> failures = new LinkedHashMap<>();
        for (int r = 0; r < repeat; r++) {
            for (String name : List.of("producers alone", "with slow handlers, at least once",
                    "with slow handlers, exactly once")) {
                DeliveryMode mode = name.endsWith("at least once") ? DeliveryMode.AT_LEAST_ONCE
                        : name.endsWith("exactly once") ? DeliveryMode.EXACTLY_ONCE : null;
                long[] failed = new long[1];
                double rate = measure(mode, failed);
                rates.computeIfAbsent(name, n -> new ArrayList<>()).add(rate);
                failures.merge(name, failed[0], Long::sum);
                progress.accept(String.format("%s, run %d/%d: %.0f messages/s, %d failed enqueues", name, r + 1,
                        repeat, rate, failed[0]));
            }
        }
        Schema.drop(pool, TABLE);
        List<SlowHandlerSample> samples = new ArrayList<>();
        rates.forEach((name, values) -> samples.add(new SlowHandlerSample(name, Range.of(values), failures.get(name), values)));
        return samples;
    }

    /** One phase: the producers' committed messages per second, with workers of {@code mode} running (null: none). */
    private double measure(DeliveryMode mode, long[] failed) throws Exception {
        Schema.recreate(pool, TABLE);
        QueueLocation location = TABLE.queue("slow");
        QueueProducer producer = new QueueProducer(pool, location);
        // A backlog for the workers to be busy with from the start.
        producer.enqueueAll(Collections.nCopies(WORKERS * BATCH * 4, PAYLOAD));
        QueueWorkers workers = mode == null ? null : QueueWorkers.start(pool, QueueConfig.of(location).withMode(mode)
                .withThreads(WORKERS).withPoll(PollSettings.DEFAULT.withBatchSize(BATCH)), batch -> Thread.sleep(handlerTime.toMillis()));
        try {
            if (workers != null) {
                awaitBusy(workers);
            }
            AtomicLong enqueued = new AtomicLong();
            AtomicLong failures = new AtomicLong();
            List<String> batch = Collections.nCopies(BATCH, PAYLOAD);
            double seconds = Phase.run(PRODUCERS, "slow-handlers-producer", phase, () -> {
                try {
                    producer.enqueueAll(batch);
                    enqueued.addAndGet(BATCH);
                } catch (RuntimeException e) {
                    failures.incrementAndGet();
                }
            });
            failed[0] = failures.get();
            return enqueued.get() / seconds;
        } finally {
            if (workers != null) {
                workers.shutdown(handlerTime.plusSeconds(10));
            }
        }
    }

    /** Waits until every worker has a batch in its handler. */
    private static void awaitBusy(QueueWorkers workers) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (workers.busyWorkers() < WORKERS && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }
}
