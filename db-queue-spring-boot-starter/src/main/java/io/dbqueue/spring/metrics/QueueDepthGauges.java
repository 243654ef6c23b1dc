package io.dbqueue.spring.metrics;

import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.spring.QueueDepths;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.function.ToDoubleFunction;

/**
 * Registers the gauges {@code dbq.queue.depth} and {@code dbq.queue.oldest.age.seconds} per queue, read
 * through {@link QueueDepths} (at most one count per queue every few seconds, however often they are
 * scraped). A queue whose depth cannot be read reports NaN.
 */
public final class QueueDepthGauges {

    public static final String DEPTH = "dbq.queue.depth";
    public static final String OLDEST_AGE = "dbq.queue.oldest.age.seconds";

    public QueueDepthGauges(MeterRegistry registry, QueueDepths depths, Collection<String> ids) {
        for (String id : ids) {
            gauge(registry, DEPTH, "Tasks in the queue, due or not", "tasks", depths, id, Depth::tasks);
            gauge(registry, OLDEST_AGE, "Age of the oldest task in the queue, zero when empty", "seconds", depths, id,
                    depth -> depth.oldestAge().toNanos() / 1e9);
        }
    }

    private static void gauge(MeterRegistry registry, String name, String description, String unit,
                              QueueDepths depths, String id, ToDoubleFunction<Depth> value) {
        Gauge.builder(name, depths, d -> {
            QueueDepths.Reading reading = d.read(id);
            return reading.depth() == null ? Double.NaN : value.applyAsDouble(reading.depth());
        }).description(description).baseUnit(unit).tag(DbQueueMetrics.TAG, id).strongReference(true).register(registry);
    }
}
