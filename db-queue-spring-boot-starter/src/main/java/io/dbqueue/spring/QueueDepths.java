package io.dbqueue.spring;

import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.QueueMonitor;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The depth of every configured queue, read at most once per {@code maxAge} per queue, so that metric
 * scrapes and health probes do not count a deep queue over and over. A failed read is cached too and
 * reported as such.
 */
public final class QueueDepths {

    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(5);

    /** The last read of one queue: its depth, or the failure that read got. */
    public record Reading(Depth depth, RuntimeException failure) {
    }

    private final Map<String, CachedDepth> byId = new LinkedHashMap<>();

    public QueueDepths(DataSource dataSource, QueueDefinitions definitions, Duration maxAge, LongSupplier clock) {
        definitions.all().forEach(d -> byId.put(d.id(),
                new CachedDepth(new QueueMonitor(dataSource, d.location()), maxAge.toNanos(), clock)));
    }

    public QueueDepths(DataSource dataSource, QueueDefinitions definitions) {
        this(dataSource, definitions, DEFAULT_MAX_AGE, System::nanoTime);
    }

    /** The latest reading of queue {@code id}, no older than the maximum age. */
    public Reading read(String id) {
        CachedDepth cached = byId.get(id);
        if (cached == null) {
            throw new IllegalArgumentException("unknown queue id '" + id + "'; configured: " + byId.keySet());
        }
        return cached.read();
    }

    private static final class CachedDepth {

        private final QueueMonitor monitor;
        private final long maxAgeNanos;
        private final LongSupplier clock;
        private Reading reading;
        private long readAt;

        CachedDepth(QueueMonitor monitor, long maxAgeNanos, LongSupplier clock) {
            this.monitor = monitor;
            this.maxAgeNanos = maxAgeNanos;
            this.clock = clock;
        }

        synchronized Reading read() {
            long now = clock.getAsLong();
            if (reading == null || now - readAt >= maxAgeNanos) {
                try {
                    reading = new Reading(monitor.depth(), null);
                } catch (RuntimeException e) {
                    reading = new Reading(null, e);
                }
                readAt = now;
            }
            return reading;
        }
    }
}
