package io.dbqueue.spring;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.queue.IdempotencyKeys;
import io.dbqueue.queue.QueueTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Purges the idempotency keys older than {@code dbq.idempotency-key-retention} from every configured
 * queue table, every 24th of the retention (at least a minute apart, at most an hour), on one daemon thread.
 */
public final class IdempotencyKeyPurge implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeyPurge.class);
    private static final Duration MIN_PERIOD = Duration.ofMinutes(1);
    private static final Duration MAX_PERIOD = Duration.ofHours(1);

    private final DataSource dataSource;
    private final Set<QueueTable> tables = new LinkedHashSet<>();
    private final Duration retention;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-key-purge"));

    public IdempotencyKeyPurge(DataSource dataSource, QueueDefinitions definitions, Duration retention) {
        this.dataSource = dataSource;
        this.retention = retention;
        definitions.all().forEach(d -> tables.add(d.location().table()));
        long period = period(retention).toMillis();
        timer.scheduleWithFixedDelay(this::purgeAll, period, period, TimeUnit.MILLISECONDS);
    }

    static Duration period(Duration retention) {
        Duration period = retention.dividedBy(24);
        return period.compareTo(MIN_PERIOD) < 0 ? MIN_PERIOD : period.compareTo(MAX_PERIOD) > 0 ? MAX_PERIOD : period;
    }

    /** Purges every table now; returns how many keys went. */
    public long purgeAll() {
        long deleted = 0;
        for (QueueTable table : tables) {
            try {
                deleted += IdempotencyKeys.purge(dataSource, table, retention);
            } catch (RuntimeException e) {
                LOG.warn("dbq: purging the idempotency keys of {} failed; trying again at the next purge: {}",
                        table.name(), e.toString());
            }
        }
        return deleted;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
