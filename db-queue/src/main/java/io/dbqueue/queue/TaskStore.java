package io.dbqueue.queue;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.internal.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/** The consumer side's statements on one queue, each a single round trip for a whole batch. */
final class TaskStore {

    private final QueueLocation location;
    private final QueueSql sql;
    /** The statements that return or move whole tasks, headers included where the table has them. */
    private final SchemaAwareSql taskSql;
    private final boolean partitioned;
    /** Whether finished tasks move to the table's history ({@link QueueConfig#history()}) rather than go. */
    private final boolean keepsHistory;
    private final ClaimCursor cursor; // null: the layout claims from the start (next_process_at order)
    // A queue's workers claim with one mode and batch size: the statement is built when that changes, not per claim.
    private volatile ClaimStatement lastClaim;
    // UPDATE/DELETE ... RETURNING does not keep the subquery's order; within a batch the handler gets id order,
    // the highest priority first where the layout has priorities.
    private static final Comparator<Task> BY_ID = Comparator.comparingLong(Task::id);
    private static final Comparator<Task> BY_PRIORITY = Comparator.comparingInt(Task::priority).reversed()
            .thenComparing(BY_ID);
    private final Comparator<Task> batchOrder;

    TaskStore(QueueLocation location) {
        this(location, false);
    }

    TaskStore(QueueLocation location, boolean keepsHistory) {
        this(location, ClaimCursor.RESCAN_INTERVAL, keepsHistory);
    }

    TaskStore(QueueLocation location, Duration rescanInterval) {
        this(location, rescanInterval, false);
    }

    private TaskStore(QueueLocation location, Duration rescanInterval, boolean keepsHistory) {
        this.location = location;
        this.keepsHistory = keepsHistory;
        this.sql = new QueueSql(location.table());
        this.taskSql = new SchemaAwareSql(location.table());
        this.partitioned = location.table().layout().partitions() > 0;
        this.cursor = sql.claimsFromFloor ? new ClaimCursor(rescanInterval) : null;
        this.batchOrder = location.table().layout().priorities() ? BY_PRIORITY : BY_ID;
    }

    /**
     * Claims up to {@code limit} due tasks: with a lease (at least once), locked for the caller's
     * transaction (exactly once), or deleted (at most once), in one round trip ({@link QueueSql#claimComposite}).
     */
    List<Task> claim(Connection c, int limit, DeliveryMode mode, Duration lease) throws SQLException {
        ClaimCursor.Floor floor = cursor == null ? ClaimCursor.Floor.FROM_START : cursor.floor();
        ClaimStatement claim = claimStatement(c, mode, limit);
        try (PreparedStatement ps = c.prepareStatement(claim.statement())) {
            bindClaim(ps, claim.delivery(), lease, floor);
            List<Task> tasks = claimed(ps, claim.resultsBefore(), claim.sql(), limit);
            if (cursor != null) {
                cursor.claimed(floor, tasks, limit);
            }
            return tasks;
        }
    }

    /**
     * At least once, leases up to {@code limit} due tasks that keep every key under {@code limits}' per-key limit
     * ({@link QueueSql#keyLimitedClaim}), in the caller's transaction, which holds the queue's limits row.
     */
    List<Task> claimKeyLimited(Connection c, int limit, Duration lease, QueueLimits limits) throws SQLException {
        QueueSql statements = taskSql.on(c);
        if (!statements.headers) {
            throw new IllegalStateException(location + ": a per-key limit reads the tasks' headers column, which "
                    + location.table().name() + " lacks; add it with Schema.headersMigration");
        }
        String settings = statements.claimSettings(Delivery.of(DeliveryMode.AT_LEAST_ONCE)); // one result, before
        try (PreparedStatement ps = c.prepareStatement(settings + "; " + statements.keyLimitedClaim(limit))) {
            int p = 1;
            ps.setString(p++, location.queueName());
            ps.setString(p++, limits.keyHeader());
            ps.setString(p++, location.queueName());
            ps.setString(p++, limits.keyHeader());
            ps.setString(p++, limits.keyHeader());
            ps.setInt(p++, limits.maxPerKey());
            ps.setInt(p++, limits.maxPerKey());
            ps.setString(p++, limits.keyHeader());
            if (statements.byIdNamesQueue) {
                ps.setString(p++, location.queueName());
            }
            ps.setLong(p++, micros(lease));
            if (statements.byIdNamesQueue) {
                ps.setString(p, location.queueName());
            }
            return claimed(ps, 1, statements, limit);
        }
    }

    /** Runs a claim whose tasks are the result after {@code resultsBefore} others; in batch order. */
    private List<Task> claimed(PreparedStatement ps, int resultsBefore, QueueSql statements, int limit)
            throws SQLException {
        ps.execute();
        for (int i = 0; i < resultsBefore; i++) {
            ps.getMoreResults();
        }
        List<Task> tasks = new ArrayList<>(limit);
        try (ResultSet rs = ps.getResultSet()) {
            while (rs.next()) {
                tasks.add(statements.task(rs));
            }
        }
        tasks.sort(batchOrder);
        return tasks;
    }

    /** Whether {@link #untilNextDue} can tell (the layout has a cheap look-up). */
    boolean knowsNextDue() {
        return sql.nextDueComposite() != null;
    }

    /**
     * Microseconds until the queue's earliest task not yet due comes due ({@link QueueSql#nextDueComposite}),
     * or -1 when there is none, or the layout cannot tell.
     */
    long untilNextDue(Connection c) throws SQLException {
        String lookUp = sql.nextDueComposite();
        if (lookUp == null) {
            return -1;
        }
        try (PreparedStatement ps = c.prepareStatement(lookUp)) {
            ps.setString(1, location.queueName());
            ps.execute();
            ps.getMoreResults(); // past the planner settings
            try (ResultSet rs = ps.getResultSet()) {
                rs.next();
                long micros = rs.getLong(1);
                return rs.wasNull() ? -1 : Math.max(0, micros);
            }
        }
    }

    /** Binds the parameters of {@code delivery}'s claim ({@link QueueSql#claim}) from {@code floor}. */
    void bindClaim(PreparedStatement claim, Delivery delivery, Duration lease, ClaimCursor.Floor floor)
            throws SQLException {
        int p = sql.bindDue(claim, delivery.bindLease(claim, micros(lease)), location.queueName(), floor);
        if (delivery.claimNamesQueueAgain(sql)) {
            claim.setString(p, location.queueName());
        }
    }

    private ClaimStatement claimStatement(Connection c, DeliveryMode mode, int limit) throws SQLException {
        ClaimStatement claim = lastClaim;
        if (claim == null || claim.mode() != mode || claim.limit() != limit) {
            Delivery delivery = Delivery.of(mode);
            QueueSql statements = taskSql.on(c);
            claim = new ClaimStatement(mode, limit, delivery, statements, statements.claimComposite(delivery, limit),
                    statements.resultsBeforeClaim(delivery));
            lastClaim = claim;
        }
        return claim;
    }

    /**
     * @param sql           the statements it is one of, which read its rows
     * @param resultsBefore how many results precede the claim's in the composite statement
     */
    private record ClaimStatement(DeliveryMode mode, int limit, Delivery delivery, QueueSql sql, String statement,
                                  int resultsBefore) {
    }

    /**
     * On a partitioned table, makes the rest of the caller's transaction run cached generic plans.
     * There a custom plan for a delete by ids prunes partitions, so it always looks cheaper than the
     * generic one and PostgreSQL plans every delete anew, at more cost than the delete itself. Call
     * it after the handler's statements, so that only the queue's own statements follow.
     */
    void preferGenericPlans(Connection c) throws SQLException {
        if (partitioned) {
            try (Statement st = c.createStatement()) {
                st.execute(QueueSql.GENERIC_PLANS);
            }
        }
    }

    /** Pushes the leases of {@code tasks} that are still theirs {@code lease} ahead; returns how many were. */
    int extendLeases(Connection c, List<Task> tasks, Duration lease) throws SQLException {
        if (tasks.isEmpty()) {
            return 0;
        }
        Object[] params = byId(c, tasks, Jdbc.longs(c, ids(tasks)), Jdbc.ints(c, counter(tasks, Task::totalAttempt)));
        Object[] withLease = new Object[params.length + 1];
        withLease[0] = micros(lease);
        System.arraycopy(params, 0, withLease, 1, params.length);
        return Jdbc.update(c, sql.extendLeases, withLease);
    }

    void finish(Connection c, List<Task> tasks) throws SQLException {
        if (!tasks.isEmpty()) {
            Jdbc.update(c, keepsHistory ? taskSql.on(c).finishIntoHistory : sql.finish, finishParams(c, tasks));
        }
    }

    /**
     * At least once: deletes finished tasks in an auto-committed transaction that does not wait for a
     * WAL flush ({@link QueueSql#finishWithoutFlush}). {@code c} must be in autocommit mode.
     */
    void finishWithoutFlush(Connection c, List<Task> tasks) throws SQLException {
        if (tasks.isEmpty()) {
            return;
        }
        Object[] params = finishParams(c, tasks);
        try (PreparedStatement ps = c.prepareStatement(
                keepsHistory ? taskSql.on(c).finishIntoHistoryWithoutFlush : sql.finishWithoutFlush)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.execute();
        }
    }

    /** The ids, and with a history the counters of the attempt that finished them ({@link QueueSql#finishIntoHistory}). */
    private Object[] finishParams(Connection c, List<Task> tasks) throws SQLException {
        if (!keepsHistory) {
            return byId(c, tasks, Jdbc.longs(c, ids(tasks)));
        }
        return byId(c, tasks, Jdbc.longs(c, ids(tasks)), Jdbc.ints(c, counter(tasks, Task::attempt)),
                Jdbc.ints(c, counter(tasks, Task::totalAttempt)));
    }

    void release(Connection c, List<Task> tasks) throws SQLException {
        if (!tasks.isEmpty()) {
            long[] ids = ids(tasks);
            Jdbc.update(c, sql.release, byId(c, tasks, Jdbc.longs(c, ids),
                    Jdbc.ints(c, counter(tasks, Task::totalAttempt)), Jdbc.longs(c, ids)));
        }
    }

    /** Schedules retries: {@code delays} maps each failed task to its backoff; {@code delivery}'s retry counts it. */
    void retry(Connection c, Map<Task, Duration> delays, Delivery delivery) throws SQLException {
        if (delays.isEmpty()) {
            return;
        }
        List<Task> tasks = new ArrayList<>(delays.keySet());
        Jdbc.update(c, delivery.retry(sql), byId(c, tasks, Jdbc.longs(c, ids(tasks)), Jdbc.longs(c, micros(tasks, delays)),
                Jdbc.ints(c, counter(tasks, Task::attempt)), Jdbc.ints(c, counter(tasks, Task::totalAttempt))));
    }

    void reenqueue(Connection c, Map<Task, Duration> delays) throws SQLException {
        if (delays.isEmpty()) {
            return;
        }
        List<Task> tasks = new ArrayList<>(delays.keySet());
        Jdbc.update(c, sql.reenqueue, byId(c, tasks, Jdbc.longs(c, ids(tasks)), Jdbc.longs(c, micros(tasks, delays)),
                Jdbc.ints(c, counter(tasks, Task::totalAttempt))));
    }

    /** Moves tasks to the dead-letter table; {@code errors} maps each to its last error. */
    void deadLetter(Connection c, Map<Task, String> errors) throws SQLException {
        if (errors.isEmpty()) {
            return;
        }
        List<Task> tasks = new ArrayList<>(errors.keySet());
        String[] messages = new String[tasks.size()];
        for (int i = 0; i < tasks.size(); i++) {
            messages[i] = errors.get(tasks.get(i)).replace('\0', ' ');
        }
        Jdbc.update(c, taskSql.on(c).deadLetter, byId(c, tasks, Jdbc.longs(c, ids(tasks)),
                Jdbc.ints(c, counter(tasks, Task::attempt)),
                Jdbc.ints(c, counter(tasks, Task::totalAttempt)), Jdbc.texts(c, messages)));
    }

    private Object[] byId(Connection c, List<Task> tasks, Object... params) throws SQLException {
        return sql.byTaskIds(c, location.queueName(), tasks, params);
    }

    private static int[] counter(List<Task> tasks, ToIntFunction<Task> counter) {
        return tasks.stream().mapToInt(counter).toArray();
    }

    private static long[] ids(List<Task> tasks) {
        long[] ids = new long[tasks.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tasks.get(i).id();
        }
        return ids;
    }

    /** Each task's delay in microseconds, in the order of {@code tasks}. */
    private static long[] micros(List<Task> tasks, Map<Task, Duration> delays) {
        long[] micros = new long[tasks.size()];
        for (int i = 0; i < micros.length; i++) {
            micros[i] = micros(delays.get(tasks.get(i)));
        }
        return micros;
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1000;
    }
}
