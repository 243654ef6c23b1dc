package io.dbqueue.maintenance;

import io.dbqueue.internal.Jdbc;
import io.dbqueue.queue.HistoryTable;
import io.dbqueue.queue.QueueTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the histories of queue tables ({@link HistoryTable}): creates each table's partitions ahead and drops those
 * older than its retention, whole. A table keeps the longest history any of its queues asked for.
 */
public final class HistoryRetention {

    private static final Logger LOG = LoggerFactory.getLogger(HistoryRetention.class);
    /** How often the partitions are kept; {@link HistoryTable#AHEAD} partitions of an hour or more are far ahead. */
    public static final Duration PERIOD = Duration.ofMinutes(10);

    private final DataSource dataSource;
    private final Map<QueueTable, Duration> retentions = new ConcurrentHashMap<>();

    public HistoryRetention(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Keeps {@code table}'s history for {@code retention} (or longer, if a queue asked for longer before), creating
     * the table and its partitions now, so that the queue's first finish has a partition to go to.
     */
    public void keep(QueueTable table, Duration retention) {
        Duration kept = retentions.merge(Objects.requireNonNull(table, "table"), retention,
                (a, b) -> a.compareTo(b) >= 0 ? a : b);
        HistoryTable.createIfMissing(dataSource, table, kept);
    }

    /** {@link #apply} at the server's clock, a failure logged: for a schedule, whose next round tries again. */
    void applyQuietly() {
        try {
            apply(Jdbc.autoCommitted(dataSource, "read the clock", HistoryTable::now));
        } catch (RuntimeException e) {
            LOG.warn("keeping the queue histories failed, trying again next round: {}", e.getMessage());
        }
    }

    /**
     * Creates each table's partitions ahead of {@code now} and drops those wholly older than {@code now} minus its
     * retention; returns the names of the partitions dropped. A table that fails is logged and left to the next round.
     */
    public List<String> apply(Instant now) {
        return retentions.entrySet().stream().flatMap(e -> apply(e.getKey(), e.getValue(), now).stream()).toList();
    }

    private List<String> apply(QueueTable table, Duration retention, Instant now) {
        try {
            return Jdbc.autoCommitted(dataSource, "keep the history of " + table.name(), c -> {
                HistoryTable.createAhead(c, table, retention, now);
                List<String> dropped = HistoryTable.dropBefore(c, table, now.minus(retention));
                if (!dropped.isEmpty()) {
                    LOG.info("{}: dropped history partitions {}", table.name(), dropped);
                }
                return dropped;
            });
        } catch (RuntimeException e) {
            LOG.warn("{}: keeping the history failed, trying again next round: {}", table.name(), e.getMessage());
            return List.of();
        }
    }
}
