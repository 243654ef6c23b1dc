package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads a queue's depth and the age of its oldest task, for metrics and health checks; and, for tests
 * and operators, its tasks, and empties it.
 */
public final class QueueMonitor {

    /** @param oldestAge age of the oldest task in the queue, zero when it is empty */
    public record Depth(long tasks, Duration oldestAge) {
    }

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueSql sql;

    public QueueMonitor(DataSource dataSource, QueueLocation location) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.sql = new QueueSql(location.table());
    }

    public QueueLocation location() {
        return location;
    }

    /** Counts the queue's tasks (a full count: cheap for a drained queue, a scan for a deep one). */
    public Depth depth() {
        return Jdbc.autoCommitted(dataSource, "read depth of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.depth)) {
                ps.setString(1, location.queueName());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    double seconds = rs.getDouble(2);
                    return new Depth(rs.getLong(1), Duration.ofNanos((long) (seconds * 1e9)));
                }
            }
        });
    }

    /** The queue's first {@code limit} tasks by id: waiting, claimed or due later. */
    public List<Task> peek(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        return Jdbc.autoCommitted(dataSource, "read tasks of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.peek)) {
                ps.setString(1, location.queueName());
                ps.setInt(2, limit);
                return tasks(ps);
            }
        });
    }

    /** Deletes every task of the queue, claimed ones included, and returns them by id. */
    public List<Task> purge() {
        return Jdbc.autoCommitted(dataSource, "purge " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.purge)) {
                ps.setString(1, location.queueName());
                return tasks(ps);
            }
        });
    }

    private static List<Task> tasks(PreparedStatement ps) throws SQLException {
        List<Task> tasks = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                tasks.add(QueueSql.task(rs));
            }
        }
        return tasks;
    }
}
