package io.dbqueue.log;

import io.dbqueue.Identifiers;
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
        Identifiers.topicName(topicName);
        return Jdbc.autoCommitted(dataSource, "describe topic " + topicName, c -> {
            try (PreparedStatement ps = c.prepareStatement(LogSql.CATALOG_EXISTS);
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    throw unknown(topicName);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(LogSql.DESCRIBE)) {
                ps.setString(1, topicName);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw unknown(topicName);
                    }
                    return new Topic(topicName, rs.getInt(1), rs.getLong(2));
                }
            }
        });
    }

    private static IllegalArgumentException unknown(String topicName) {
        return new IllegalArgumentException("unknown topic '" + topicName
                + "': no row in dbq_topics; create it with LogSchema.create");
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
     * Creates the segments of {@code partition} that hold offsets up to {@code offset}, and the one
     * after, so that appends find them. Creators of one partition's segments take turns on an
     * advisory lock; a segment below the retention's low offset is never created again. A segment is
     * created apart and attached ({@link LogSql#addSegment}), which appends and reads do not wait
     * for; the lock it takes waits at most 2 s for another attach or a retention drop, then fails.
     */
    static void ensureSegments(Connection c, Topic topic, int partition, long offset) throws SQLException {
        LogSql sql = new LogSql(topic);
        Jdbc.inTransaction(c, tx -> {
            try (Statement st = tx.createStatement()) {
                st.execute(LogSql.LOCK_TIMEOUT);
            }
            try (PreparedStatement ps = tx.prepareStatement(LogSql.SEGMENT_LOCK)) {
                ps.setString(1, topic.name());
                ps.setInt(2, partition);
                ps.execute();
            }
            long low = PartitionBounds.read(tx, sql, partition).low();
            try (Statement st = tx.createStatement(); PreparedStatement exists = tx.prepareStatement(LogSql.TABLE_EXISTS)) {
                for (long s = topic.segmentOf(low); s <= topic.segmentOf(offset) + 1; s++) {
                    exists.setString(1, sql.segmentTable(partition, s));
                    try (ResultSet rs = exists.executeQuery()) {
                        rs.next();
                        if (rs.getBoolean(1)) {
                            continue;
                        }
                    }
                    for (String ddl : sql.addSegment(partition, s)) {
                        st.execute(ddl);
                    }
                }
            }
            return null;
        });
    }
}
