package io.dbqueue.log;

import io.dbqueue.common.Identifiers;
import io.dbqueue.common.QueueException;
import io.dbqueue.internal.Jdbc;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates, describes and drops topics. A topic's definition is a row of {@code dbq_topics}, which
 * producers and consumers read, so they cannot disagree on its partition count.
 */
public final class LogSchema {

    /** The first segments of each partition are created with the topic; more are added as appends need them. */
    private static final int INITIAL_SEGMENTS = 2;

    private LogSchema() {
    }

    /** Creates the topic's tables and its catalog row in one transaction; fails if the topic exists. */
    public static void create(DataSource dataSource, Topic topic) {
        String ddl = ddl(topic);
        Jdbc.autoCommitted(dataSource, "create topic " + topic.name(), c -> Jdbc.inTransaction(c, tx -> {
            try (Statement st = tx.createStatement()) {
                return st.execute(ddl);
            }
        }));
    }

    /** The DDL {@link #create} runs: what {@code sql/} shows for an example topic. */
    public static String ddl(Topic topic) {
        return new LogSql(topic).ddl(INITIAL_SEGMENTS);
    }

    /** Drops the topic's tables and catalog row if they exist. */
    public static void drop(DataSource dataSource, String topicName) {
        Identifiers.topicName(topicName);
        Jdbc.autoCommitted(dataSource, "drop topic " + topicName, c -> Jdbc.inTransaction(c, tx -> {
            try (Statement st = tx.createStatement()) {
                st.execute(LogSql.CATALOG);
            }
            Integer partitions = partitions(tx, topicName);
            if (partitions != null) {
                try (Statement st = tx.createStatement()) {
                    for (String ddl : new LogSql(new Topic(topicName, partitions, Topic.DEFAULT_SEGMENT_SIZE)).dropTables()) {
                        st.execute(ddl);
                    }
                }
                Jdbc.update(tx, LogSql.FORGET_TOPIC, topicName);
            }
            return null;
        }));
    }

    /** Drops the topic if it exists and creates it anew: for tests and the lab. */
    public static void recreate(DataSource dataSource, Topic topic) {
        drop(dataSource, topic.name());
        create(dataSource, topic);
    }

    /** The topic as created; throws naming the topic if there is none of that name. */
    public static Topic describe(DataSource dataSource, String topicName) {
        Topic topic = find(dataSource, topicName);
        if (topic == null) {
            throw new IllegalArgumentException("unknown topic '" + topicName
                    + "': no row in dbq_topics; create it with LogSchema.create");
        }
        return topic;
    }

    /**
     * The topic as created, creating it as {@code topic} first if there is none of its name. Instances starting
     * together may all call this: one creates the topic, the others describe it.
     */
    public static Topic createIfMissing(DataSource dataSource, Topic topic) {
        Topic existing = find(dataSource, topic.name());
        if (existing != null) {
            return existing;
        }
        try {
            create(dataSource, topic);
            return topic;
        } catch (QueueException failed) {
            Topic raced = find(dataSource, topic.name()); // another instance created it at the same time
            if (raced == null) {
                throw failed; // no race: the creation itself failed, and says why
            }
            return raced;
        }
    }

    /** The topic as created, or null if there is none of that name. */
    private static Topic find(DataSource dataSource, String topicName) {
        Identifiers.topicName(topicName);
        return Jdbc.autoCommitted(dataSource, "describe topic " + topicName, c -> {
            try (PreparedStatement ps = c.prepareStatement(LogSql.CATALOG_EXISTS);
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return null;
                }
            }
            try (PreparedStatement ps = c.prepareStatement(LogSql.DESCRIBE)) {
                ps.setString(1, topicName);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? new Topic(topicName, rs.getInt(1), rs.getLong(2)) : null;
                }
            }
        });
    }

    private static Integer partitions(Connection c, String topicName) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LogSql.DESCRIBE)) {
            ps.setString(1, topicName);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : null;
            }
        }
    }

    /**
     * Takes, in {@code tx}, the turn of {@code partition}'s segment creators and droppers (an advisory
     * lock held until {@code tx} ends), and makes every lock {@code tx} waits for fail after 2 s.
     */
    static void takeSegmentTurn(Connection tx, Topic topic, int partition) throws SQLException {
        try (Statement st = tx.createStatement()) {
            st.execute(LogSql.LOCK_TIMEOUT);
        }
        try (PreparedStatement ps = tx.prepareStatement(LogSql.SEGMENT_LOCK)) {
            ps.setString(1, topic.name());
            ps.setInt(2, partition);
            ps.execute();
        }
    }

    /**
     * Creates the segments of {@code partition} that hold offsets up to {@code offset}, and the one
     * after, so that appends find them; returns the offset below which segments now exist. Creators
     * of one partition's segments, and retention dropping one, take turns on an advisory lock; a
     * segment below the retention's low offset is never created again. A partition's segments are
     * one run from the low offset up (created in order, dropped from the bottom), so only the top of
     * that run is looked at. A segment is created apart and attached ({@link LogSql#addSegment}),
     * which appends and reads do not wait for; the lock it takes waits at most 2 s for another attach
     * or a retention drop, then fails.
     */
    static long ensureSegments(Connection c, Topic topic, int partition, long offset) throws SQLException {
        LogSql sql = new LogSql(topic);
        long last = topic.segmentOf(offset) + 1;
        Jdbc.inTransaction(c, tx -> {
            takeSegmentTurn(tx, topic, partition);
            long first = topic.segmentOf(PartitionBounds.read(tx, sql, partition).low());
            long missingFrom = last + 1;
            try (PreparedStatement exists = tx.prepareStatement(LogSql.TABLE_EXISTS)) {
                while (missingFrom > first && !exists(exists, sql.segmentTable(partition, missingFrom - 1))) {
                    missingFrom--;
                }
            }
            try (Statement st = tx.createStatement()) {
                for (long s = missingFrom; s <= last; s++) {
                    for (String ddl : sql.addSegment(partition, s)) {
                        st.execute(ddl);
                    }
                }
            }
            return null;
        });
        return (last + 1) * topic.segmentSize();
    }

    private static boolean exists(PreparedStatement exists, String table) throws SQLException {
        exists.setString(1, table);
        try (ResultSet rs = exists.executeQuery()) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
