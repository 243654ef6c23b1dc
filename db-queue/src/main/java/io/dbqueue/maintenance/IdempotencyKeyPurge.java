package io.dbqueue.maintenance;

import io.dbqueue.queue.IdempotencyKeys;
import io.dbqueue.queue.QueueTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * Purges the idempotency keys older than the retention from queue tables ({@link IdempotencyKeys#purge}),
 * every 24th of the retention, at least a minute apart and at most an hour, so a key outlives its
 * retention by at most a 24th of it.
 */
public final class IdempotencyKeyPurge {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeyPurge.class);
    private static final Duration MIN_PERIOD = Duration.ofMinutes(1);
    private static final Duration MAX_PERIOD = Duration.ofHours(1);

    private final DataSource dataSource;
    private final Duration retention;
    private final Set<QueueTable> tables = new CopyOnWriteArraySet<>();

    public IdempotencyKeyPurge(DataSource dataSource, Duration retention) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the idempotency keys' retention must be positive, was " + retention);
        }
        this.retention = retention;
    }

    /** How often the keys are purged. */
    public Duration period() {
        Duration period = retention.dividedBy(24);
        return period.compareTo(MIN_PERIOD) < 0 ? MIN_PERIOD : period.compareTo(MAX_PERIOD) > 0 ? MAX_PERIOD : period;
    }

    /** Purges {@code table}'s keys too (once however often it is added). */
    public void add(QueueTable table) {
        tables.add(Objects.requireNonNull(table, "table"));
    }

    /** Purges every table now, a failed one logged and left to the next purge; returns how many keys went. */
    public long purgeAll() {
        long deleted = 0;
        for (QueueTable table : tables) {
            try {
                deleted += IdempotencyKeys.purge(dataSource, table, retention);
            } catch (RuntimeException e) {
                LOG.warn("{}: purging the idempotency keys failed; trying again at the next purge: {}", table.name(),
                        e.toString());
            }
        }
        return deleted;
    }
}
