package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An operator's hold on one queue: its {@link QueueMonitor.Stats}; pausing and resuming its consumption in every
 * process (workers observe the pause within a second, see {@link PauseWatch}); cancelling and rescheduling a waiting
 * task; and its {@link DeadLetters}. A waiting task is one no worker holds: due and unclaimed, or due later and never
 * claimed. A task that is claimed, or waiting out a retry's backoff, is left alone.
 */
public final class QueueAdmin {

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueSql sql;

    public QueueAdmin(DataSource dataSource, QueueLocation location) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.sql = new QueueSql(location.table());
    }

    public QueueLocation location() {
        return location;
    }

    public QueueMonitor.Stats stats() {
        return new QueueMonitor(dataSource, location).stats();
    }

    public DeadLetters deadLetters() {
        return new DeadLetters(dataSource, location);
    }

    /**
     * Stops the queue's consumption in every process: it is stored in the table's pauses table, and every
     * {@code DbQueue}'s workers on the queue stop claiming from it within a second; batches in progress complete.
     * Returns whether it was running.
     */
    public boolean pause() {
        return update("pause", sql.pause, location.queueName()) > 0;
    }

    /** Undoes {@link #pause}: workers claim again within a second. Returns whether it was paused. */
    public boolean resume() {
        return update("resume", sql.resume, location.queueName()) > 0;
    }

    /** Deletes waiting task {@code id} of the queue. Returns false when there is none (or it is claimed). */
    public boolean cancel(long id) {
        return update("cancel task " + id, sql.cancel, byId(location.queueName(), id)) > 0;
    }

    /**
     * Deletes the waiting task that was enqueued with idempotency key {@code key}. The key stays (until purged), so a
     * repeated enqueue with it still answers the cancelled task's id rather than enqueueing it again. Returns false
     * when no waiting task has that key.
     */
    public boolean cancelByKey(String key) {
        IdempotencyKeys.checked(key, "key");
        return update("cancel the task of a key", sql.cancelByKey,
                byId(location.queueName(), location.queueName(), key)) > 0;
    }

    /** Makes waiting task {@code id} due at {@code dueAt}. Returns false when there is none (or it is claimed). */
    public boolean reschedule(long id, Instant dueAt) {
        Objects.requireNonNull(dueAt, "dueAt");
        Instant now = Instant.now();
        if (dueAt.isBefore(now.minus(Checks.LONGEST)) || dueAt.isAfter(now.plus(Checks.LONGEST))) {
            throw new IllegalArgumentException("dueAt must be within 100 years of now, was " + dueAt);
        }
        return update("reschedule task " + id, sql.reschedule,
                byId(OffsetDateTime.ofInstant(dueAt, ZoneOffset.UTC), location.queueName(), id)) > 0;
    }

    /**
     * Where task {@code id} of this queue is now: waiting, scheduled, leased, dead, or done while the history of a
     * queue that keeps one ({@link QueueConfig#history()}) holds it. Empty when it is in none of these: finished
     * (without history, or longer ago than it keeps), cancelled, or never enqueued into this queue.
     */
    public Optional<FoundTask> find(long id) {
        return Jdbc.autoCommitted(dataSource, "find task " + id + " of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.find)) {
                ps.setLong(1, id);
                ps.setString(2, location.queueName());
                ps.setLong(3, id);
                ps.setString(4, location.queueName());
                Optional<FoundTask> found = found(ps);
                if (found.isPresent() || !Jdbc.tableVisible(c, location.table().historyTable())) {
                    return found;
                }
            }
            try (PreparedStatement ps = c.prepareStatement(sql.findDone)) {
                ps.setLong(1, id);
                ps.setString(2, location.queueName());
                return found(ps);
            }
        });
    }

    /** The task {@code find} or {@code findDone} found, if any. */
    private static Optional<FoundTask> found(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return Optional.of(new FoundTask(rs.getLong(1), FoundTask.State.valueOf(rs.getString(8)),
                    rs.getString(2), instant(rs, 3), instant(rs, 4), rs.getInt(5), rs.getInt(6), rs.getString(7)));
        }
    }

    /** The id of the task enqueued with idempotency key {@code key}, while the key is kept; empty for an unknown key. */
    public OptionalLong taskIdOfKey(String key) {
        IdempotencyKeys.checked(key, "key");
        return Jdbc.autoCommitted(dataSource, "read a key of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.taskOfKey)) {
                ps.setString(1, location.queueName());
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    /**
     * Ageing, against the starvation of strict priorities (a lower priority waits as long as a higher one is due):
     * raises by one the priority of every due task of the queue that was enqueued more than {@code waited} ago, up
     * to {@value QueueSql#AGE_CHUNK} a call. Run every {@code waited}, it lets a task gain a level for every such
     * interval it waits, so a low task overtakes a steady stream of young high-priority ones within as many
     * intervals as the levels between them. Only on a layout with {@link Layout#priorities() priorities}; a claimed
     * task, or one an exactly-once batch holds, is left alone. Returns how many tasks it raised.
     */
    public int agePriorities(Duration waited) {
        if (!location.table().layout().priorities()) {
            throw new IllegalArgumentException("ageing needs a layout with priorities (" + Layout.priorityPresetNames()
                    + "); " + location.table().name() + " has layout " + location.table().layout().name());
        }
        Checks.notNegative("waited", waited);
        return update("age the priorities", sql.agePriorities, location.queueName(), waited.toNanos() / 1000);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return QueueSql.instant(rs.getTimestamp(column));
    }

    private Object[] byId(Object... params) {
        return sql.byId(location.queueName(), params);
    }

    private int update(String what, String statement, Object... params) {
        return Jdbc.autoCommitted(dataSource, what + " of " + location, c -> Jdbc.update(c, statement, params));
    }

    @Override
    public String toString() {
        return "QueueAdmin[" + location + "]";
    }
}
