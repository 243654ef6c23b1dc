package io.dbqueue.log;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Applies a {@link RetentionPolicy} to a topic by dropping whole segments, oldest first, and raising
 * the partition's low offset past them in the same transaction. No row is deleted, so retention
 * leaves no dead tuples behind. A drop waits at most 2 s for its locks ({@link LogSql#LOCK_TIMEOUT}) (readers and
 * writers of the partition queue behind a waiting DROP); one that times out is tried next round.
 */
public final class LogRetention implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final DataSource dataSource;
    private final Topic topic;
    private final LogSql sql;
    private final RetentionPolicy policy;
    private ScheduledExecutorService scheduler;

    private LogRetention(DataSource dataSource, Topic topic, RetentionPolicy policy) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.topic = topic;
        this.sql = new LogSql(topic);
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public static LogRetention of(DataSource dataSource, String topicName, RetentionPolicy policy) {
        return new LogRetention(dataSource, LogSchema.describe(dataSource, topicName), policy);
    }

    /** Applies the policy every {@code interval} on a daemon thread until closed. */
    public static LogRetention start(DataSource dataSource, String topicName, RetentionPolicy policy,
                                     Duration interval) {
        LogRetention retention = of(dataSource, topicName, policy);
        retention.scheduler = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("dbq-log-retention-" + topicName));
        retention.scheduler.scheduleWithFixedDelay(retention::applyQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return retention;
    }

    private void applyQuietly() {
        try {
            apply();
        } catch (RuntimeException e) {
            LOG.warn("{}: retention failed, trying again next round: {}", topic.name(), e.getMessage());
        }
    }

    /** Drops what the policy allows now; returns how many segments it dropped. */
    public int apply() {
        return Jdbc.autoCommitted(dataSource, "retention on " + topic.name(), c -> {
            int dropped = 0;
            for (int p = 0; p < topic.partitions(); p++) {
                dropped += apply(c, p);
            }
            return dropped;
        });
    }

    private int apply(Connection c, int partition) throws SQLException {
        long next = PartitionBounds.read(c, sql, partition).next();
        Long minCommitted = minCommitted(c, partition);
        List<Segment> segments = segments(c, partition);
        long bytes = segments.stream().mapToLong(Segment::bytes).sum();
        int dropped = 0;
        for (Segment segment : segments) {
            long end = (segment.number() + 1) * topic.segmentSize();
            Reason reason = end > next ? Reason.KEEP : reason(c, partition, end, minCommitted, bytes);
            if (reason == Reason.KEEP || !drop(c, partition, segment.number(), end, reason == Reason.CONSUMED)) {
                break;
            }
            LOG.info("{}: retention dropped partition {} offsets below {} ({} bytes)", topic.name(), partition, end,
                    segment.bytes());
            bytes -= segment.bytes();
            dropped++;
        }
        return dropped;
    }

    /** Why a segment may go: its size or age (whoever has read it), or every group having read it. */
    private enum Reason { KEEP, CONSUMED, LIMIT }

    private Reason reason(Connection c, int partition, long end, Long minCommitted, long bytes) throws SQLException {
        if (policy.maxBytes() > 0 && bytes > policy.maxBytes()) {
            return Reason.LIMIT;
        }
        if (policy.maxAge() != null) {
            try (PreparedStatement ps = c.prepareStatement(sql.segmentNewest(partition))) {
                ps.setLong(1, end - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || policy.expired(rs.getTimestamp(1).toInstant(), Instant.now())) {
                        return Reason.LIMIT;
                    }
                }
            }
        }
        return policy.dropConsumed() && minCommitted != null && minCommitted >= end ? Reason.CONSUMED : Reason.KEEP;
    }

    /**
     * Drops the segment and raises the low offset in one transaction, taking its turn with the partition's
     * segment creators (so none creates a segment it drops again). A drop for consumption checks
     * again once it holds the partition's row (a group joining or reset meanwhile waits for that row,
     * or has committed and is seen here), and rolls back if a group is now below the segment's end.
     */
    private boolean drop(Connection c, int partition, long segment, long end, boolean onlyIfConsumed)
            throws SQLException {
        try {
            return Jdbc.inTransaction(c, tx -> {
                try (Statement st = tx.createStatement()) {
                    st.execute(LogSql.LOCK_TIMEOUT);
                }
                // the segment creators' turn: one creating segments now has read the low offset this raises
                try (PreparedStatement ps = tx.prepareStatement(LogSql.SEGMENT_LOCK)) {
                    ps.setString(1, topic.name());
                    ps.setInt(2, partition);
                    ps.execute();
                }
                Jdbc.update(tx, sql.raiseLowOffset, end, partition);
                Long position = onlyIfConsumed ? minCommitted(tx, partition) : null;
                if (onlyIfConsumed && (position == null || position < end)) {
                    tx.rollback();
                    return false;
                }
                try (Statement st = tx.createStatement()) {
                    st.execute(sql.dropSegment(partition, segment));
                }
                return true;
            });
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                LOG.debug("{}: retention could not lock partition {} in time, next round", topic.name(), partition);
                return false;
            }
            throw e;
        }
    }

    /** A segment of a partition: its number (it holds offsets from number x segment size) and its size. */
    private record Segment(long number, long bytes) {
    }

    /** The partition's segments, oldest first. */
    private List<Segment> segments(Connection c, int partition) throws SQLException {
        List<Segment> segments = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.segments(partition))) {
            while (rs.next()) {
                segments.add(new Segment(rs.getLong(1), rs.getLong(2)));
            }
        }
        return segments;
    }

    /** The lowest position of any group on the partition; null when no group reads the topic. */
    private Long minCommitted(Connection c, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.minCommitted)) {
            ps.setInt(1, partition);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return (Long) rs.getObject(1);
            }
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
