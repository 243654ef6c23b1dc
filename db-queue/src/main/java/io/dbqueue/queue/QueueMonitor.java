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
 * Reads a queue's depth and the age of its oldest due task, for metrics and health checks; its {@link Stats}, for
 * operators; and, for tests and operators, its tasks, and empties it.
 */
public final class QueueMonitor {

    /**
     * @param tasks     the tasks in the queue, due or not
     * @param oldestAge age (since enqueue) of the oldest task that is due, zero when none is: a task due later (delayed,
     *                  waiting out a retry) or leased does not wait for a worker
     */
    public record Depth(long tasks, Duration oldestAge) {
    }

    /**
     * What a queue holds, read in one statement (a scan of the queue's rows, as {@link #depth}).
     *
     * @param waiting          tasks due now and not claimed (an exactly-once batch's tasks count here while it runs:
     *                         it holds them by row locks, not leases)
     * @param oldestWaitingAge age (since enqueue) of the oldest waiting task; zero when none waits
     * @param leased           tasks claimed under a lease, and tasks waiting out a retry's backoff: the table
     *                         cannot tell the two apart
     * @param scheduled        tasks due later that no worker has claimed yet: enqueued with a delay, rescheduled,
     *                         or re-enqueued by their handler
     * @param deadLetters      tasks that ran out of attempts
     * @param paused           whether an operator paused the queue ({@link QueueAdmin#pause})
     */
    public record Stats(long waiting, Duration oldestWaitingAge, long leased, long scheduled, long deadLetters,
                        boolean paused) {
    }

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueSql sql;
    private final SchemaAwareSql taskSql;

    public QueueMonitor(DataSource dataSource, QueueLocation location) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.sql = new QueueSql(location.table());
        this.taskSql = new SchemaAwareSql(location.table());
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
                    return new Depth(rs.getLong(1), seconds(rs.getDouble(2)));
                }
            }
        });
    }

    /** The queue's {@link Stats}. Needs the pauses table ({@link Schema#createIfMissing} adds it to older tables). */
    public Stats stats() {
        return Jdbc.autoCommitted(dataSource, "read stats of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.stats)) {
                for (int p = 1; p <= 3; p++) {
                    ps.setString(p, location.queueName());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new Stats(rs.getLong(1), seconds(rs.getDouble(2)), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getBoolean(6));
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
            QueueSql statements = taskSql.on(c);
            try (PreparedStatement ps = c.prepareStatement(statements.peek)) {
                ps.setString(1, location.queueName());
                ps.setInt(2, limit);
                return tasks(statements, ps);
            }
        });
    }

    /** Deletes every task of the queue, claimed ones included, and returns them by id. */
    public List<Task> purge() {
        return Jdbc.autoCommitted(dataSource, "purge " + location, c -> {
            QueueSql statements = taskSql.on(c);
            try (PreparedStatement ps = c.prepareStatement(statements.purge)) {
                ps.setString(1, location.queueName());
                return tasks(statements, ps);
            }
        });
    }

    private static Duration seconds(double seconds) {
        return Duration.ofNanos((long) (seconds * 1e9));
    }

    private static List<Task> tasks(QueueSql statements, PreparedStatement ps) throws SQLException {
        List<Task> tasks = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                tasks.add(statements.task(rs));
            }
        }
        return tasks;
    }
}
