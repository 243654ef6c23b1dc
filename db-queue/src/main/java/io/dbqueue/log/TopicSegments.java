package io.dbqueue.log;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A topic's storage as retention sees it: each partition's segments, its bounds and slowest group,
 * and the drop of a segment. Which segments go is retention's business (the maintenance package's
 * {@code LogRetention}); every call runs on the caller's connection.
 */
public final class TopicSegments {

    /** A segment of a partition: its number (it holds offsets from number x segment size) and its size. */
    public record Segment(long number, long bytes) {
    }

    private final Topic topic;
    private final LogSql sql;

    private TopicSegments(Topic topic) {
        this.topic = topic;
        this.sql = new LogSql(topic);
    }

    /** The segments of the topic as created (its row in {@code dbq_topics}). */
    public static TopicSegments of(DataSource dataSource, String topicName) {
        return new TopicSegments(LogSchema.describe(dataSource, topicName));
    }

    public Topic topic() {
        return topic;
    }

    /** The first offset after {@code segment}'s. */
    public long end(Segment segment) {
        return (segment.number() + 1) * topic.segmentSize();
    }

    /** The partition's next offset to append. */
    public long nextOffset(Connection c, int partition) throws SQLException {
        return PartitionBounds.read(c, sql, partition).next();
    }

    /** The partition's segments, oldest first. */
    public List<Segment> segments(Connection c, int partition) throws SQLException {
        List<Segment> segments = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.segments(partition))) {
            while (rs.next()) {
                segments.add(new Segment(rs.getLong(1), rs.getLong(2)));
            }
        }
        return segments;
    }

    /** When the record at {@code offset} of the partition was appended; empty when it is not there. */
    public Optional<Instant> appendedAt(Connection c, int partition, long offset) throws SQLException {
        return Optional.ofNullable(appendedAt(c, sql, partition, offset));
    }

    /** As {@link #appendedAt}, null when it is not there; for {@link LogAdmin} too. */
    static Instant appendedAt(Connection c, LogSql sql, int partition, long offset) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.appendedAtOffset(partition, offset));
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getTimestamp(1).toInstant() : null;
        }
    }

    /** The lowest position of any group on the partition; null when no group reads the topic. */
    public Long minCommitted(Connection c, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.minCommitted)) {
            ps.setInt(1, partition);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return (Long) rs.getObject(1);
            }
        }
    }

    /**
     * Drops the segment and raises the low offset in one transaction, taking its turn with the partition's
     * segment creators (so none creates a segment it drops again). A drop for consumption checks
     * again once it holds the partition's row (a group joining or reset meanwhile waits for that row,
     * or has committed and is seen here), and rolls back if a group is now below the segment's end.
     * Its locks are waited for at most 2 s: readers and writers of the partition queue behind a
     * waiting DROP; then it throws with SQL state 55P03 (lock not available). The partition's table is
     * locked before its row, in the order of an append (whose insert holds the table before its update
     * takes the counter row): with the row first, an append that began between the two waited for the
     * row while the DROP waited for the append's hold on the table, a deadlock that PostgreSQL broke by
     * aborting one of them after a second.
     *
     * @return whether it dropped the segment
     */
    public boolean drop(Connection c, int partition, Segment segment, boolean onlyIfConsumed) throws SQLException {
        long end = end(segment);
        return Jdbc.inTransaction(c, tx -> {
            // the segment creators' turn: one creating segments now has read the low offset this raises
            LogSchema.takeSegmentTurn(tx, topic, partition);
            try (Statement st = tx.createStatement()) {
                st.execute("LOCK TABLE " + sql.partitionTable(partition) + " IN ACCESS EXCLUSIVE MODE");
            }
            Jdbc.update(tx, sql.raiseLowOffset, end, partition);
            Long position = onlyIfConsumed ? minCommitted(tx, partition) : null;
            if (onlyIfConsumed && (position == null || position < end)) {
                tx.rollback();
                return false;
            }
            try (Statement st = tx.createStatement()) {
                st.execute(sql.dropSegment(partition, segment.number()));
            }
            return true;
        });
    }
}
