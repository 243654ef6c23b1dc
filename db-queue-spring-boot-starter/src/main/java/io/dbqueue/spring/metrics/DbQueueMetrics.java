package io.dbqueue.spring.metrics;

import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.Task;
import io.dbqueue.spring.DbQueues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Meters of the configured queues, tagged {@code queue=<id>}: as a {@link QueueListener}, tasks enqueued, processed,
 * failed and dead-lettered, the latency of each claim and the size of each non-empty batch (created up front, so
 * callbacks only look them up); and the gauges {@code dbq.queue.depth} and {@code dbq.queue.oldest.age.seconds},
 * read through {@code depths} ({@link DbQueues#depth}; NaN when the depth cannot be read).
 */
public final class DbQueueMetrics implements QueueListener {

    public static final String ENQUEUED = "dbq.tasks.enqueued";
    public static final String PROCESSED = "dbq.tasks.processed";
    public static final String FAILED = "dbq.tasks.failed";
    public static final String DEAD = "dbq.tasks.dead";
    public static final String CLAIM_LATENCY = "dbq.claim.latency";
    public static final String BATCH_SIZE = "dbq.batch.size";
    public static final String DEPTH = "dbq.queue.depth";
    public static final String OLDEST_AGE = "dbq.queue.oldest.age.seconds";
    public static final String TAG = "queue";

    private record Meters(Counter enqueued, Counter processed, Counter failed, Counter dead, Timer claimLatency,
                          DistributionSummary batchSize) {
    }

    private final Map<QueueLocation, Meters> byLocation = new HashMap<>();

    /** {@code configs}: the queues by id, as {@code DbQueueProperties.configs()} maps them. */
    public DbQueueMetrics(MeterRegistry registry, Map<String, QueueConfig> configs, Function<String, Depth> depths) {
        configs.forEach((id, config) -> {
            byLocation.put(config.location(), new Meters(
                    counter(registry, ENQUEUED, id, "Tasks written to the queue"),
                    counter(registry, PROCESSED, id, "Tasks that completed and left the queue"),
                    counter(registry, FAILED, id, "Task attempts that failed, dead-lettered or not"),
                    counter(registry, DEAD, id, "Tasks moved to the dead-letter table after their last attempt"),
                    Timer.builder(CLAIM_LATENCY).description("Time of one claim query, empty claims included")
                            .tag(TAG, id).register(registry),
                    DistributionSummary.builder(BATCH_SIZE).description("Tasks per non-empty claim")
                            .baseUnit("tasks").tag(TAG, id).register(registry)));
            gauge(registry, DEPTH, "Tasks in the queue, due or not", "tasks", depths, id, Depth::tasks);
            gauge(registry, OLDEST_AGE, "Age of the oldest task in the queue, zero when empty", "seconds", depths, id,
                    depth -> depth.oldestAge().toNanos() / 1e9);
        });
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            meters.enqueued.increment(count);
        }
    }

    @Override
    public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            meters.claimLatency.record(claimNanos, TimeUnit.NANOSECONDS);
            if (!tasks.isEmpty()) {
                meters.batchSize.record(tasks.size());
            }
        }
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            meters.processed.increment(tasks.size());
        }
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            meters.failed.increment();
            if (deadLettered) {
                meters.dead.increment();
            }
        }
    }

    private static Counter counter(MeterRegistry registry, String name, String id, String description) {
        return Counter.builder(name).description(description).baseUnit("tasks").tag(TAG, id).register(registry);
    }

    private static void gauge(MeterRegistry registry, String name, String description, String unit,
                              Function<String, Depth> depths, String id, ToDoubleFunction<Depth> value) {
        Gauge.builder(name, depths, d -> {
            try {
                return value.applyAsDouble(d.apply(id));
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }).description(description).baseUnit(unit).tag(TAG, id).strongReference(true).register(registry);
    }
}
