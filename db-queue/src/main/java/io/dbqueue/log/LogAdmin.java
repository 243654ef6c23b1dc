package io.dbqueue.log;

import io.dbqueue.common.Identifiers;
import io.dbqueue.internal.Jdbc;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Looks at and moves consumer groups' positions on a topic. */
public final class LogAdmin {

    private final DataSource dataSource;
    private final Topic topic;
    private final LogSql sql;

    private LogAdmin(DataSource dataSource, Topic topic) {
        this.dataSource = dataSource;
        this.topic = topic;
        this.sql = new LogSql(topic);
    }

    public static LogAdmin of(DataSource dataSource, String topicName) {
        return new LogAdmin(dataSource, LogSchema.describe(dataSource, topicName));
    }

    /** Every group's position on every partition, by group and partition. */
    public List<GroupLag> lag() {
        return Jdbc.autoCommitted(dataSource, "lag of " + topic.name(), c -> {
            List<GroupLag> lags = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.lag); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lags.add(new GroupLag(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getString(6)));
                }
            }
            return lags;
        });
    }

    /**
     * Sets the group's next offset on {@code partition}: from the lowest kept offset up to the next
     * offset to be appended. A member reading the partition right now has its commit refused and
     * goes on from the new position; an exactly-once member's batch in hand is waited for. The
     * group's row is locked before the partition's (a reset holds the partition's row against a
     * retention drop), so that producers of the partition never wait behind that batch.
     */
    public void resetGroup(String group, int partition, long offset) {
        Identifiers.groupName(group);
        topic.checkPartition(partition);
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, was " + offset);
        }
        Jdbc.autoCommitted(dataSource, "reset group " + group, c -> Jdbc.inTransaction(c, tx -> {
            lockGroup(tx, group, partition);
            PartitionBounds bounds = PartitionBounds.readLocked(tx, sql, partition);
            if (offset < bounds.low() || offset > bounds.next()) {
                throw new IllegalArgumentException("topic " + topic.name() + " partition " + partition + " holds offsets "
                        + bounds.low() + " to " + (bounds.next() - 1) + "; a group can be set to " + bounds.low()
                        + " to " + bounds.next() + ", not " + offset);
            }
            return Jdbc.update(tx, sql.resetGroup, offset, group, partition);
        }));
    }

    /**
     * Sets the group on every partition to the first record appended at or after {@code time} (or the end). The
     * group's rows are locked first, all of them, one statement per partition as Citus routes them (waiting for
     * exactly-once batches in hand while it holds nothing producers need), then each partition is read before its
     * row is locked, in the order of a retention drop (the partition's table, then its row).
     */
    public void resetGroup(String group, Instant time) {
        Identifiers.groupName(group);
        Jdbc.autoCommitted(dataSource, "reset group " + group, c -> Jdbc.inTransaction(c, tx -> {
            for (int p = 0; p < topic.partitions(); p++) {
                lockGroup(tx, group, p);
            }
            for (int p = 0; p < topic.partitions(); p++) {
                Long first = offsetAt(tx, p, time);
                PartitionBounds bounds = PartitionBounds.readLocked(tx, sql, p);
                Jdbc.update(tx, sql.resetGroup, first == null ? bounds.next() : Math.max(first, bounds.low()), group, p);
            }
            return null;
        }));
    }

    /**
     * The first offset of {@code partition} appended at or after {@code time}, or null. The appends' times rise with
     * their offsets but for the skew of appends that waited for one another, so a search by offset (point look-ups,
     * each opening one segment) finds about where, and the exact first is read from a segment before that on. Read
     * by time alone, the partitioned table was walked from its oldest segment, each segment opened and locked, while
     * the group's rows were held.
     */
    private Long offsetAt(Connection c, int partition, Instant time) throws SQLException {
        PartitionBounds bounds = PartitionBounds.read(c, sql, partition);
        long low = bounds.low();
        long high = bounds.next();
        while (low < high) {
            long middle = low + (high - low) / 2;
            Instant at = TopicSegments.appendedAt(c, sql, partition, middle);
            if (at != null && !at.isBefore(time)) {
                high = middle;
            } else {
                low = middle + 1; // also where retention dropped it meanwhile: older than anything kept
            }
        }
        try (PreparedStatement ps = c.prepareStatement(sql.offsetAt(partition,
                Math.max(bounds.low(), low - topic.segmentSize())))) {
            ps.setTimestamp(1, Timestamp.from(time));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return (Long) rs.getObject(1);
            }
        }
    }

    /** Locks the group's row of {@code partition}, waiting for a batch that holds it; refuses a group never started. */
    private void lockGroup(Connection c, String group, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.lockGroup)) {
            ps.setString(1, group);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("group " + group + " has never read topic " + topic.name()
                            + ": start a member of it first");
                }
            }
        }
    }
}
