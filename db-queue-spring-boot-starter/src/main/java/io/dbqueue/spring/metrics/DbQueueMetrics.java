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

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Meters of the configured queues, tagged {@code queue=<id>}, named so that they export to Prometheus as they read
 * ({@code dbq.tasks.enqueued} as {@code dbq_tasks_enqueued_total}, timers in seconds). As a {@link QueueListener}:
 * tasks enqueued, processed, failed and dead-lettered, the latency of each claim and the size of each non-empty
 * batch (created up front, so callbacks only look them up); each handled task's share of its batch's handler time,
 * tagged with its {@code result} and {@code exception}; and each finished task's time since it was enqueued. The
 * gauges {@code dbq.queue.depth}, {@code dbq.queue.oldest.age} and {@code dbq.queue.dead.letters} are read through
 * {@link DbQueues} (NaN when they cannot be read).
 */
public final class DbQueueMetrics implements QueueListener {

    public static final String ENQUEUED = "dbq.tasks.enqueued";
    public static final String PROCESSED = "dbq.tasks.processed";
    public static final String FAILED = "dbq.tasks.failed";
    public static final String DEAD = "dbq.tasks.dead";
    public static final String CLAIM_LATENCY = "dbq.claim.latency";
    public static final String BATCH_SIZE = "dbq.batch.size";
    public static final String HANDLED = "dbq.task.handled";
    public static final String LATENCY = "dbq.task.latency";
    public static final String DEPTH = "dbq.queue.depth";
    public static final String OLDEST_AGE = "dbq.queue.oldest.age";
    public static final String DEAD_LETTERS = "dbq.queue.dead.letters";
    public static final String TAG = "queue";

    /** {@link #HANDLED}'s results: finished, failed and to be retried, moved to the dead letters, re-enqueued. */
    public static final String SUCCESS = "success";
    public static final String RETRY = "retry";
    public static final String DEAD_LETTERED = "dead-lettered";
    public static final String REENQUEUED = "reenqueued";

    /**
     * A task's error as {@code TaskBatch.describe} writes a thrown exception: its simple name and the message, or its
     * full name alone.
     */
    private static final Pattern EXCEPTION =
            Pattern.compile("^(?:[a-z_$][\\w$]*\\.)*([A-Za-z_$][\\w$]*(?:Exception|Error|Throwable))(?::|$)");

    private record Meters(String id, Counter enqueued, Counter processed, Counter failed, Counter dead,
                          Timer claimLatency, DistributionSummary batchSize, Timer latency) {
    }

    /** The share of its batch's handler time of each task the calling thread's handler last ran, by task id. */
    private static final ThreadLocal<Map<Long, Long>> HANDLER_NANOS = ThreadLocal.withInitial(HashMap::new);

    private final MeterRegistry registry;
    private final Map<QueueLocation, Meters> byLocation = new HashMap<>();

    /**
     * @param configs     the queues by id, as {@code DbQueueProperties.configs()} maps them
     * @param depths      a queue's depth by id, as {@link DbQueues#depthNow}; a gauge is NaN when it throws
     * @param deadLetters a queue's dead letters by id, as {@link DbQueues#deadLetterCountNow}
     */
    public DbQueueMetrics(MeterRegistry registry, Map<String, QueueConfig> configs, Function<String, Depth> depths,
                          Function<String, Long> deadLetters) {
        this.registry = registry;
        configs.forEach((id, config) -> {
            byLocation.put(config.location(), new Meters(id,
                    counter(registry, ENQUEUED, id, "Tasks written to the queue"),
                    counter(registry, PROCESSED, id, "Tasks that completed and left the queue"),
                    counter(registry, FAILED, id, "Task attempts that failed, dead-lettered or not"),
                    counter(registry, DEAD, id, "Tasks moved to the dead-letter table after their last attempt"),
                    Timer.builder(CLAIM_LATENCY).description("Time of one claim query, empty claims included")
                            .tag(TAG, id).register(registry),
                    DistributionSummary.builder(BATCH_SIZE).description("Tasks per non-empty claim")
                            .tag(TAG, id).register(registry),
                    Timer.builder(LATENCY).description("Time from a task's enqueue (its created_at) to its finish")
                            .tag(TAG, id).register(registry)));
            gauge(registry, DEPTH, "Tasks in the queue, due or not", null, id, queue -> depths.apply(queue).tasks());
            gauge(registry, OLDEST_AGE, "Age of the oldest due task in the queue, zero when none is due", "seconds", id,
                    queue -> depths.apply(queue).oldestAge().toNanos() / 1e9);
            gauge(registry, DEAD_LETTERS, "Dead letters waiting in the queue's dead-letter table", null, id,
                    deadLetters::apply);
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

    /** Keeps each task's share of the handler time until its answer is reported, on this same thread. */
    @Override
    public void executed(QueueLocation queue, List<Task> tasks, long handlerNanos) {
        Map<Long, Long> shares = HANDLER_NANOS.get();
        shares.clear(); // a batch whose answers were never reported (its acknowledgement failed)
        if (byLocation.containsKey(queue) && !tasks.isEmpty()) {
            tasks.forEach(task -> shares.put(task.id(), handlerNanos / tasks.size()));
        }
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            meters.processed.increment(tasks.size());
            Instant now = Instant.now();
            for (Task task : tasks) {
                handled(meters, task, SUCCESS, "none");
                if (task.createdAt() == null) {
                    continue; // a row written by the application's own SQL without one
                }
                Duration sinceEnqueued = Duration.between(task.createdAt(), now);
                // negative when the database's clock, which wrote created_at, is ahead of this host's
                meters.latency.record(sinceEnqueued.isNegative() ? Duration.ZERO : sinceEnqueued);
            }
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
            handled(meters, task, deadLettered ? DEAD_LETTERED : RETRY, exception(error));
        }
    }

    @Override
    public void reenqueued(QueueLocation queue, Task task) {
        Meters meters = byLocation.get(queue); // null: not a configured queue
        if (meters != null) {
            handled(meters, task, REENQUEUED, "none");
        }
    }

    /** The exception a task's error names, or "none" when the handler failed it with words of its own. */
    static String exception(String error) {
        Matcher matcher = EXCEPTION.matcher(error);
        return matcher.find() ? matcher.group(1) : "none";
    }

    /** Records a task's share of its handler's time; none for a task no handler ran here (its lease expired). */
    private void handled(Meters meters, Task task, String result, String exception) {
        Long nanos = HANDLER_NANOS.get().remove(task.id());
        if (nanos != null) {
            Timer.builder(HANDLED).description("Each task's share of its batch's handler time, by its answer")
                    .tags(TAG, meters.id, "result", result, "exception", exception).register(registry)
                    .record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    private static Counter counter(MeterRegistry registry, String name, String id, String description) {
        return Counter.builder(name).description(description).tag(TAG, id).register(registry);
    }

    private static void gauge(MeterRegistry registry, String name, String description, String unit, String id,
                              ToDoubleFunction<String> value) {
        Gauge.builder(name, id, queue -> {
            try {
                return value.applyAsDouble(queue);
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }).description(description).baseUnit(unit).tag(TAG, id).strongReference(true).register(registry);
    }
}
