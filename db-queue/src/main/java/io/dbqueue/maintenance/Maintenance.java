package io.dbqueue.maintenance;

import io.dbqueue.common.Checks;
import io.dbqueue.common.QueueException;
import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueTable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The maintenance jobs of one {@code DbQueue}: the vacuum of each queue table its workers claim from
 * (one {@link QueueVacuum} per table, counting the claims of all of them), each topic's
 * {@link LogRetention}, the {@link IdempotencyKeyPurge} of its queue tables, and the {@link HistoryRetention} of
 * those whose queues keep a history. Retention and purge run in turn on one daemon thread; a vacuum runs on its
 * table's own.
 */
public final class Maintenance implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

    private final DataSource dataSource;
    private final IdempotencyKeyPurge keys;
    private final HistoryRetention histories;
    private final Map<QueueTable, QueueVacuum> vacuums = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-maintenance"));

    /** Starts purging the idempotency keys older than {@code keyRetention} of the tables {@link #purgeKeys} names. */
    public Maintenance(DataSource dataSource, Duration keyRetention) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.keys = new IdempotencyKeyPurge(dataSource, keyRetention);
        long period = keys.period().toMillis();
        scheduler.scheduleWithFixedDelay(keys::purgeAll, period, period, TimeUnit.MILLISECONDS);
        this.histories = new HistoryRetention(dataSource);
        long historyPeriod = HistoryRetention.PERIOD.toMillis();
        scheduler.scheduleWithFixedDelay(histories::applyQuietly, historyPeriod, historyPeriod, TimeUnit.MILLISECONDS);
    }

    /**
     * The listener that vacuums {@code table} per {@code policy}, to be given to every worker on the
     * table; {@link QueueListener#NONE} when the policy leaves the table to autovacuum. The first
     * policy given for a table is the one it keeps.
     */
    public QueueListener vacuum(QueueTable table, VacuumPolicy policy) {
        if (!policy.enabled()) {
            return QueueListener.NONE;
        }
        return vacuums.computeIfAbsent(table, t -> new QueueVacuum(dataSource, t, policy));
    }

    /** Purges {@code table}'s idempotency keys from now on. */
    public void purgeKeys(QueueTable table) {
        keys.add(table);
    }

    /** Keeps {@code table}'s history for at least {@code retention} from now on, its partitions created now. */
    public void keepHistory(QueueTable table, Duration retention) {
        histories.keep(table, retention);
    }

    /**
     * Applies {@code policy} to {@code topicName} every {@code interval}, the first time after one interval. The
     * topic is looked up now, so that a name without a topic fails here; when the database cannot be reached now
     * (a shard that is down while the others start), it is looked up at each round until it can be.
     */
    public void retain(String topicName, RetentionPolicy policy, Duration interval) {
        Checks.positive("interval", interval);
        AtomicReference<LogRetention> retention = new AtomicReference<>(reachable(topicName, policy));
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                if (retention.get() == null) {
                    retention.set(reachable(topicName, policy));
                }
            } catch (RuntimeException e) { // thrown out of the job, it would cancel it without a word
                LOG.error("{}: retention cannot start, trying again next round: {}", topicName, e.getMessage());
            }
            if (retention.get() != null) {
                retention.get().applyQuietly();
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The topic's retention; null, logged, when its database cannot be reached. */
    private LogRetention reachable(String topicName, RetentionPolicy policy) {
        try {
            return LogRetention.of(dataSource, topicName, policy);
        } catch (QueueException e) {
            if (Jdbc.connectionLost(e)) {
                LOG.warn("{}: retention waits for the database: {}", topicName, e.getMessage());
                return null;
            }
            throw e;
        }
    }

    /** Stops every job; one running is interrupted. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        vacuums.values().forEach(QueueVacuum::close);
    }
}
