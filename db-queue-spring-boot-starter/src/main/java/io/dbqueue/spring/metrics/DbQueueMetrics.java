package io.dbqueue.spring.metrics;

import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;
import io.dbqueue.spring.QueueDefinition;
import io.dbqueue.spring.QueueDefinitions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts what happens to the configured queues, as a {@link QueueListener}: tasks enqueued, processed,
 * failed and dead-lettered, the latency of each claim and the size of each non-empty batch, all tagged
 * {@code queue=<id>}. Meters are created up front, so callbacks only look them up.
 */
public final class DbQueueMetrics implements QueueListener {

    public static final String ENQUEUED = "dbq.tasks.enqueued";
    public static final String PROCESSED = "dbq.tasks.processed";
    public static final String FAILED = "dbq.tasks.failed";
    public static final String DEAD = "dbq.tasks.dead";
    public static final String CLAIM_LATENCY = "dbq.claim.latency";
    public static final String BATCH_SIZE = "dbq.batch.size";
    public static final String TAG = "queue";

    private record Meters(Counter enqueued, Counter processed, Counter failed, Counter dead, Timer claimLatency,
                          DistributionSummary batchSize) {
    }

    private final Map<QueueLocation, Meters> byLocation = new HashMap<>();

    public DbQueueMetrics(MeterRegistry registry, QueueDefinitions definitions) {
        for (QueueDefinition definition : definitions.all()) {
            String id = definition.id();
            byLocation.put(definition.location(), new Meters(
                    counter(registry, ENQUEUED, id, "Tasks written to the queue"),
                    counter(registry, PROCESSED, id, "Tasks that completed and left the queue"),
                    counter(registry, FAILED, id, "Task attempts that failed, dead-lettered or not"),
                    counter(registry, DEAD, id, "Tasks moved to the dead-letter table after their last attempt"),
                    Timer.builder(CLAIM_LATENCY).description("Time of one claim query, empty claims included")
                            .tag(TAG, id).register(registry),
                    DistributionSummary.builder(BATCH_SIZE).description("Tasks per non-empty claim")
                            .baseUnit("tasks").tag(TAG, id).register(registry)));
        }
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        Meters meters = byLocation.get(queue);
        if (meters != null) {
            meters.enqueued.increment(count);
        }
    }

    @Override
    public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
        Meters meters = byLocation.get(queue);
        if (meters != null) {
            meters.claimLatency.record(claimNanos, TimeUnit.NANOSECONDS);
            if (!tasks.isEmpty()) {
                meters.batchSize.record(tasks.size());
            }
        }
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        Meters meters = byLocation.get(queue);
        if (meters != null) {
            meters.processed.increment(tasks.size());
        }
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        Meters meters = byLocation.get(queue);
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
}
