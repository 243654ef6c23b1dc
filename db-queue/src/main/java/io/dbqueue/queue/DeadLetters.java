package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Lists, requeues and deletes the failed tasks of one queue. */
public final class DeadLetters {

    public static final int MAX_PAGE = 10_000;

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueSql sql;
    /** The statements that read or move whole tasks, headers included where the table has them. */
    private final SchemaAwareSql taskSql;

    public DeadLetters(DataSource dataSource, QueueLocation location) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.sql = new QueueSql(location.table());
        this.taskSql = new SchemaAwareSql(location.table());
    }

    /** Up to {@code limit} failed tasks with an id above {@code afterId}, oldest first (page with the last id). */
    public List<DeadTask> list(long afterId, int limit) {
        if (limit <= 0 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + ", was " + limit);
        }
        return Jdbc.autoCommitted(dataSource, "list dead letters of " + location, c -> {
            QueueSql statements = taskSql.on(c);
            try (PreparedStatement ps = c.prepareStatement(statements.listDead)) {
                ps.setString(1, location.queueName());
                ps.setLong(2, afterId);
                ps.setInt(3, limit);
                List<DeadTask> tasks = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        tasks.add(new DeadTask(rs.getLong(1), rs.getString(2), rs.getString(3),
                                QueueSql.instant(rs.getTimestamp(4)), rs.getTimestamp(8).toInstant(), rs.getInt(5),
                                rs.getInt(6), rs.getInt(7), rs.getString(9),
                                statements.headers ? TaskHeaders.read(rs.getLong(1), rs.getString(10)) : Map.of()));
                    }
                }
                return tasks;
            }
        });
    }

    public long count() {
        return Jdbc.autoCommitted(dataSource, "count dead letters of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.countDead)) {
                ps.setString(1, location.queueName());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /**
     * Puts the given failed tasks back in the queue, due now, each with its id and its attempt count reset (its total
     * attempts and re-enqueues kept). Returns how many moved.
     */
    public int requeue(List<Long> ids) {
        long[] values = ids(ids);
        return Jdbc.autoCommitted(dataSource, "requeue dead letters of " + location,
                c -> Jdbc.update(c, taskSql.on(c).requeueDead, location.queueName(), Jdbc.longs(c, values)));
    }

    /**
     * Requeues every dead letter of the queue as {@link #requeue} does, {@link #MAX_PAGE} at a time, each chunk in a
     * transaction of its own, until none is left: a failure leaves the chunks before it requeued. Returns how many
     * moved.
     */
    public int requeueAll() {
        return inChunks("requeue dead letters of " + location, true);
    }

    /** Deletes the given failed tasks for good. Returns how many were deleted. */
    public int delete(List<Long> ids) {
        long[] values = ids(ids);
        return Jdbc.autoCommitted(dataSource, "delete dead letters of " + location,
                c -> Jdbc.update(c, sql.deleteDead, location.queueName(), Jdbc.longs(c, values)));
    }

    /** Deletes every dead letter of the queue, {@link #MAX_PAGE} at a time as {@link #requeueAll}. Returns how many. */
    public int deleteAll() {
        return inChunks("delete dead letters of " + location, false);
    }

    /** Requeues or deletes a chunk at a time until one moves fewer rows than a chunk; the rows moved. */
    private int inChunks(String what, boolean requeue) {
        return Jdbc.autoCommitted(dataSource, what, c -> {
            String chunk = requeue ? taskSql.on(c).requeueAllDead : sql.deleteAllDead;
            int total = 0;
            int moved;
            do {
                moved = Jdbc.update(c, chunk, location.queueName(), location.queueName());
                total += moved;
            } while (moved == MAX_PAGE);
            return total;
        });
    }

    private static long[] ids(List<Long> ids) {
        if (ids == null || ids.isEmpty() || ids.size() > MAX_PAGE) {
            throw new IllegalArgumentException("ids must hold between 1 and " + MAX_PAGE + " ids, was "
                    + (ids == null ? "null" : ids.size()));
        }
        return ids.stream().mapToLong(id -> Objects.requireNonNull(id, "ids must not contain null")).toArray();
    }
}
