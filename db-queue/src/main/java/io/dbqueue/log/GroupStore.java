package io.dbqueue.log;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.internal.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** A group member's statements on its topic: membership, reading a partition's next range, committing. */
final class GroupStore {

    /** What a read found: the group's position and the partition's bounds, and the records after the position. */
    record Read(long committedOffset, long lowOffset, long nextOffset, List<LogRecord> records) {

        /** The records as read, out of the handler's reach: the commit's offset comes from them. */
        Read {
            records = List.copyOf(records);
        }

        /** The offset after the last record read: the group's position once the batch is done. */
        long end() {
            return records.get(records.size() - 1).offset() + 1;
        }

        /**
         * Whether the records are the ones after the position it read: each offset the one after the last, from the
         * position on (or from the partition's lowest, when retention dropped what the group had not read). A locking
         * read that waited for the group's row while a reset moved the position saw the new position, but the records
         * it had found after the old one: PostgreSQL checks again the rows it locks, not the ones it did not find.
         */
        boolean followsPosition() {
            // the offsets are distinct and ascending (ORDER BY), so the ends tell whether they run on without a gap
            long from = Math.max(committedOffset, lowOffset);
            return records.isEmpty() || (records.get(0).offset() == from && end() == from + records.size());
        }
    }

    private final Topic topic;
    private final GroupConfig config;
    private final LogSql sql;
    /** Where this member expects each partition's next read to start ({@link LogSql#read}); its thread's only. */
    private final Map<Integer, Long> positions = new HashMap<>();

    GroupStore(Topic topic, GroupConfig config) {
        this.topic = topic;
        this.config = config;
        this.sql = new LogSql(topic);
    }

    /** Gives the group a position on every partition it has none on yet, per {@link GroupConfig#startFrom()}. */
    void join(Connection c) throws SQLException {
        Jdbc.update(c, sql.joinGroup, config.group(), config.startFrom() == GroupConfig.StartFrom.LATEST);
    }

    /** What a heartbeat found: the live members, this member's share of the partitions, and those it holds. */
    record Membership(List<String> live, Set<Integer> share, Set<Integer> held) {

        /** Whether the member holds its whole share (another may still hold part of it until it lets go). */
        boolean settled() {
            return held.equals(share);
        }
    }

    /**
     * Says this member is alive, lets go of the partitions that are no longer its share and takes
     * those of its share that are free or whose lease ran out. Each statement commits on its own
     * ({@code c} in autocommit): a release is committed before the acquire, so two members swapping
     * partitions never wait on each other's rows in a cycle.
     */
    Membership heartbeat(Connection c) throws SQLException {
        long leaseMillis = config.lease().toMillis();
        Jdbc.update(c, sql.heartbeat, config.group(), config.memberId(), leaseMillis);
        Jdbc.update(c, sql.forgetDeadMembers, config.group());
        List<String> live = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.liveMembers)) {
            ps.setString(1, config.group());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    live.add(rs.getString(1));
                }
            }
        }
        Set<Integer> ownShare = Assignment.share(live, config.memberId(), topic.partitions());
        int[] share = ownShare.stream().mapToInt(Integer::intValue).toArray();
        Jdbc.update(c, sql.release, config.group(), config.memberId(), Jdbc.ints(c, share));
        Set<Integer> held = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(sql.acquire)) {
            ps.setString(1, config.memberId());
            ps.setLong(2, leaseMillis);
            ps.setString(3, config.group());
            ps.setString(4, config.group());
            ps.setArray(5, Jdbc.ints(c, share));
            ps.setString(6, config.memberId());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    held.add(rs.getInt(1));
                }
            }
        }
        return new Membership(List.copyOf(live), ownShare, held);
    }

    /** Leaves the group: its partitions are free at once instead of when their leases run out. */
    void leave(Connection c) throws SQLException {
        Jdbc.inTransaction(c, tx -> {
            Jdbc.update(tx, sql.releaseAll, config.group(), config.memberId());
            return Jdbc.update(tx, sql.leave, config.group(), config.memberId());
        });
    }

    /**
     * The next records of {@code partition} after the group's position, or null if this member no
     * longer holds the partition, or if a reset moved the position while this read waited for the group's row
     * ({@link Read#followsPosition}): a read again starts there. {@code locking} locks the group's row for the
     * transaction.
     */
    Read read(Connection c, int partition, boolean locking) throws SQLException {
        Long expected = positions.get(partition);
        if (expected == null) {
            expected = position(c, partition);
            if (expected == null) {
                return null;
            }
        }
        Read read = readFrom(c, partition, locking, expected);
        Long learnt = positions.get(partition);
        if (read == null && learnt != null && learnt != expected.longValue()) {
            read = readFrom(c, partition, locking, learnt); // the group was elsewhere: once more from there, now
        }
        return read;
    }

    /** {@link #read} from {@code expected}; a position found elsewhere is learnt for the next read, and null returned. */
    private Read readFrom(Connection c, int partition, boolean locking, long expected) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.read(partition, locking, expected))) {
            ps.setInt(1, config.batchSize());
            ps.setString(2, config.group());
            ps.setInt(3, partition);
            ps.setString(4, config.memberId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    positions.remove(partition);
                    return null;
                }
                long committed = rs.getLong(1);
                long low = rs.getLong(2);
                long next = rs.getLong(3);
                List<LogRecord> records = new ArrayList<>();
                do {
                    long offset = rs.getLong(4);
                    if (!rs.wasNull()) {
                        records.add(new LogRecord(topic.name(), partition, offset, rs.getString(5), rs.getString(6),
                                rs.getTimestamp(7).toInstant()));
                    }
                } while (rs.next());
                positions.put(partition, committed);
                if (committed != expected) { // another member's commit or a reset moved it
                    return null;
                }
                Read read = new Read(committed, low, next, records);
                return read.followsPosition() ? read : null; // a reset moved the position meanwhile: read again
            }
        }
    }

    /** Forgets the positions of the partitions this member no longer holds: another moves them meanwhile. */
    void keepPositionsOf(Set<Integer> held) {
        positions.keySet().retainAll(held);
    }

    /** The group's position in {@code partition}; null if the group has no row for it. */
    private Long position(Connection c, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.position)) {
            ps.setString(1, config.group());
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /**
     * Moves the group's position from {@code expected} to {@code next}; false if the partition moved
     * on or was reset. At least once, in a transaction of its own, the commit does not wait for the
     * WAL flush ({@link LogSql#commitLazily}).
     */
    boolean commit(Connection c, int partition, long expected, long next) throws SQLException {
        boolean lazily = config.mode() == DeliveryMode.AT_LEAST_ONCE && c.getAutoCommit();
        try (PreparedStatement ps = c.prepareStatement(lazily ? sql.commitLazily : sql.commit)) {
            ps.setLong(1, next);
            ps.setString(2, config.group());
            ps.setInt(3, partition);
            ps.setString(4, config.memberId());
            ps.setLong(5, expected);
            ps.execute();
            if (lazily) {
                ps.getMoreResults(); // past the set_config's row
            }
            boolean committed = ps.getUpdateCount() == 1;
            if (committed) {
                positions.put(partition, next); // a rolled-back commit is found out by the next read
            } else {
                positions.remove(partition);
            }
            return committed;
        }
    }
}
