package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;
import io.dbqueue.wakeup.ListenerPresence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Every statement the library runs against one queue table, in one place. Only the validated
 * table name and the layout's claim order are spliced in; all values are bound parameters, and
 * batches travel as arrays so that a batch is one statement and one round trip.
 */
final class QueueSql {

    /** The rest of the transaction runs cached generic plans; see {@link TaskStore#preferGenericPlans}. */
    static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

    /** A setting of the claim's transaction and its value there. */
    private record Setting(String name, String value) {
    }

    /**
     * Planner methods the claim must not use (see {@link #claimSettings}), JIT, and plans made anew for each claim.
     * Before PostgreSQL 18 a plan that cannot avoid a disabled method (the per-key claim's sort per key) costs 1e10
     * more, far above {@code jit_above_cost}, so a stock server with LLVM compiled every such claim: 0.6-0.75 s each
     * on PostgreSQL 15, on a queue of 42 tasks. A claim is always too short for JIT to pay. Its plan is the same
     * whatever its values (the claim index from the floor), so the cached generic plan serves: left to choose, the
     * server planned a priority claim (a union of parts) anew for nearly every claim, 0.2-0.37 ms each against
     * about 1 ms of execution for 100 tasks.
     */
    private static final List<Setting> PLANNER_SETTINGS = List.of(new Setting("enable_seqscan", "off"),
            new Setting("enable_bitmapscan", "off"), new Setting("enable_sort", "off"), new Setting("jit", "off"),
            new Setting("plan_cache_mode", "force_generic_plan"));
    /** Prefix of the custom settings that keep the caller's planner settings during an exactly-once claim. */
    private static final String SAVED = "dbq.saved_";

    /** Lets the rest of the statement's transaction commit without waiting for a WAL flush. */
    static final String NO_FLUSH = "set_config('synchronous_commit', 'off', true)";
    private static final String TASK_COLUMNS = "id, queue_name, payload, created_at, attempt, reenqueue_attempt, total_attempt";
    /**
     * The columns a task is read from: {@link #TASK_COLUMNS}, its priority where the layout has priorities, and its
     * headers where the table has them.
     */
    private final String taskColumns;
    private final boolean priorities;

    /**
     * Whether the table has the {@code headers} column ({@link Schema#headersMigration}): then the statements that
     * return or move tasks carry it, and {@link #enqueueWithHeaders} exists. Without it they are as before it was
     * added, so that a table that lacks it (or a producer that gives none) runs exactly the statements it ran then.
     */
    final boolean headers;
    /**
     * {@link #enqueue} with a jsonb headers object per task (null elements: none); params: queue, text[] payloads,
     * text[] headers. Null without the column.
     */
    final String enqueueWithHeaders;
    /**
     * {@link #enqueueDelayed} with headers; params: queue, delay in microseconds, text[] payloads, text[] headers.
     * Null without the column.
     */
    final String enqueueWithHeadersDelayed;

    final String enqueue;
    /** {@link #enqueue} and the queue's notification in one statement: params as enqueue's, then the notification's. */
    final String enqueueNotifying;
    final String enqueueDelayed;
    final String enqueueOnce;
    final String enqueueOnceDelayed;
    /** The keyed enqueue of the other {@link Uniqueness} modes; see {@link #uniqueEnqueue}. */
    final String enqueueUnique;
    /**
     * Where the layout has {@link Layout#priorities() priorities}, the enqueue of tasks of one priority (due now,
     * or after a delay); null elsewhere. params: queue, delay in microseconds, priority, text[] payloads
     */
    final String enqueuePrioritized;
    /** How many tasks one {@link #agePriorities} raises at most, so that it stays a short transaction. */
    static final int AGE_CHUNK = 10_000;
    /**
     * Where the layout has priorities, ageing ({@link QueueAdmin#agePriorities}): raises by one the priority of due
     * tasks, below the highest priority a task can have, enqueued longer ago than the given wait; null elsewhere.
     * params: queue, wait in microseconds
     */
    final String agePriorities;
    /** Whether the claims start at a {@link ClaimCursor.Floor}, which {@link #bindDue} binds. */
    final boolean claimsFromFloor;
    /**
     * Whether the only index is a key that leads with queue_name ({@link Layout.ClaimIndex#keyedByQueue}): statements
     * by id then take the queue name as their last parameter, since ids alone would read the whole key. Elsewhere
     * they do not: there the planner could answer {@code queue_name = ?} from the claim index and read a whole queue.
     */
    final boolean byIdNamesQueue;
    private final String tableName;
    private final String inFlightTable;
    private final String orderBy;
    /**
     * Where the key leads with queue_name, the claim's update or delete of the rows it picked also takes the range of
     * their ids, for the reason {@link #ofTasks} gives: a generic plan scanned the queue to find them (3,000 rows
     * read for a claim of 100 in a lab run on PostgreSQL 15); and by priority, the range of their priorities.
     */
    private final String pickedRange;
    /** The columns of the CTE {@code picked}: the ids, and the priorities where the layout has them. */
    private final String pickedColumns;
    /** The columns {@link #orderBy} reads. */
    private final String orderColumns;
    private final boolean claimIndexed;
    private final ClaimOrder claimOrder;
    final String finish;
    /**
     * At least once, {@link #finish} sent after a setting that lets its commit skip the wait for a WAL
     * flush, as one round trip and one implicit transaction: a finish lost with the server means the
     * task runs again, which at least once allows. params: as finish's
     */
    final String finishWithoutFlush;
    /**
     * {@link #finish} of a queue that keeps its history: the deleted rows move to
     * {@link QueueTable#historyTable()} in the same statement, with the counters of the attempt that
     * finished them. params: bigint[] ids, int[] attempts, int[] total attempts, [queue, lowest id, highest id]
     */
    final String finishIntoHistory;
    /** {@link #finishIntoHistory} as {@link #finishWithoutFlush} sends {@link #finish}. */
    final String finishIntoHistoryWithoutFlush;
    final String retry;
    /** {@link #retry} that counts on the row's counters, for exactly once: see {@link Delivery#retry}. */
    final String retryCounting;
    final String reenqueue;
    final String release;
    final String extendLeases;
    final String deadLetter;
    final String listDead;
    final String countDead;
    final String requeueDead;
    /** A chunk of {@link DeadLetters#MAX_PAGE} of the queue's dead letters, the oldest. */
    final String requeueAllDead;
    final String deleteDead;
    /** As {@link #requeueAllDead}. */
    final String deleteAllDead;
    final String depth;
    /** params: queue, limit */
    final String peek;
    /** params: queue */
    final String purge;
    final String purgeKeys;
    /** Waiting, oldest waiting age, leased, scheduled, dead letters, paused; params: queue, queue, queue */
    final String stats;
    /** params: queue, id, [queue] */
    final String cancel;
    /** params: queue, queue, key, [queue] */
    final String cancelByKey;
    /** A task by id, in the table or its dead letters, and where it is; params: id, queue, id, queue. */
    final String find;
    /** A finished task by id in the table's history ({@link #find}'s columns); params: id, queue. */
    final String findDone;
    /** The task id an idempotency key was enqueued with; params: queue, key. */
    final String taskOfKey;
    /** params: due at, queue, id, [queue] */
    final String reschedule;
    /** params: queue */
    final String pause;
    /** params: queue */
    final String resume;
    /** The paused queues of the table. */
    final String pausedQueues;
    /** See {@link #nextDue}; null where the layout cannot look it up cheaply. */
    private final String nextDue;
    /**
     * How many tasks from the head of an id-ordered queue {@link #nextDue} looks at: their due times
     * are in no index, so it reads rows, and reads no more than this many.
     */
    static final int NEXT_DUE_ROWS = 100;

    /** The statements of a table without the {@code headers} column, or that ignore it. */
    QueueSql(QueueTable table) {
        this(table, false, false);
    }

    /**
     * @param headers      whether the table has the {@code headers} column ({@link Schema#headersMigration})
     * @param deadPriority whether its dead letters keep their {@code priority} ({@link Schema#deadPriorityMigration}),
     *                     so that a requeued task comes back at its priority
     */
    QueueSql(QueueTable table, boolean headers, boolean deadPriority) {
        this.headers = headers;
        String t = table.name();
        String dead = table.deadLetterTable();
        boolean byId = table.layout().claimOrder().bySequence();
        claimOrder = table.layout().claimOrder();
        claimsFromFloor = byId;
        priorities = table.layout().priorities();
        taskColumns = TASK_COLUMNS + (priorities ? ", priority" : "") + (headers ? ", headers" : "");
        tableName = t;
        inFlightTable = table.inFlightTable();
        orderBy = table.layout().claimOrder().orderBy();
        orderColumns = "id, next_process_at" + (priorities ? ", priority" : "");
        byIdNamesQueue = table.layout().claimIndex().keyedByQueue();
        claimIndexed = table.layout().claimIndex() != Layout.ClaimIndex.NONE;
        pickedColumns = priorities ? "id, priority" : "id";
        pickedRange = " AND id BETWEEN (SELECT min(id) FROM picked) AND (SELECT max(id) FROM picked)" + (priorities
                ? " AND priority BETWEEN (SELECT min(priority) FROM picked) AND (SELECT max(priority) FROM picked)" : "");

        // The n-th task of a batch is due n-1 microseconds after the first, so that ordering by
        // next_process_at keeps the batch's order. params: queue, text[] payloads
        enqueue = byId
                ? "INSERT INTO " + t + " (queue_name, payload) SELECT ?, p FROM unnest(?::text[]) AS p RETURNING id"
                : "INSERT INTO " + t + " (queue_name, payload, next_process_at)"
                + " SELECT ?, p, now() + (n - 1) * interval '1 microsecond'"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        enqueueNotifying = enqueue + "; " + ListenerPresence.NOTIFY_IN_TRANSACTION;
        String withHeaders = " FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS u(p, h, n) RETURNING id";
        enqueueWithHeaders = !headers ? null : "INSERT INTO " + t + " (queue_name, payload, headers, next_process_at)"
                + " SELECT ?, p, h::jsonb, now()" + (byId ? "" : " + (n - 1) * interval '1 microsecond'") + withHeaders;
        enqueueWithHeadersDelayed = !headers ? null : "INSERT INTO " + t
                + " (queue_name, payload, headers, next_process_at)"
                + " SELECT ?, p, h::jsonb, now() + (? + n - 1) * interval '1 microsecond'" + withHeaders;
        // params: queue, delay in microseconds, text[] payloads
        enqueueDelayed = "INSERT INTO " + t + " (queue_name, payload, next_process_at)"
                + " SELECT ?, p, now() + (? + n - 1) * interval '1 microsecond'"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        // params: queue, delay in microseconds, priority, [headers as JSON, with headers], text[] payloads
        enqueuePrioritized = !priorities ? null
                : "INSERT INTO " + t + " (queue_name, payload, next_process_at, priority" + (headers ? ", headers" : "")
                + ") SELECT ?, p, now() + (? + n - 1) * interval '1 microsecond', ?" + (headers ? ", ?::jsonb" : "")
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        agePriorities = !priorities ? null
                : "UPDATE " + t + " SET priority = priority + 1 WHERE id = ANY(ARRAY(SELECT id FROM " + t
                + " WHERE queue_name = ? AND priority < " + QueueProducer.MAX_PRIORITY + " AND next_process_at <= now()"
                + " AND created_at < now() - ? * interval '1 microsecond' LIMIT " + AGE_CHUNK
                + ageingLock(table.layout()) + " SKIP LOCKED))";
        enqueueOnce = keyedEnqueue(table, byId ? "now()" : "now() + (i.n - 1) * interval '1 microsecond'", headers);
        enqueueOnceDelayed = keyedEnqueue(table, "now() + (? + i.n - 1) * interval '1 microsecond'", headers);
        enqueueUnique = uniqueEnqueue(table, byId ? "now() + m.delay * interval '1 microsecond'"
                : "now() + (m.delay + u.n - 1) * interval '1 microsecond'", byIdNamesQueue, headers);
        // Statements on a worker's tasks by id end with [queue, lowest id, highest id] (ofTasks). params: bigint[] ids,
        // [queue, lowest id, highest id]
        finish = "DELETE FROM " + t + " WHERE id = ANY(?::bigint[])" + ofTasks("");
        finishWithoutFlush = "SELECT " + NO_FLUSH + "; " + finish;
        // The history keeps a task's priority and headers where its table has them.
        String keptColumns = (priorities ? ", priority" : "") + (headers ? ", headers" : "");
        finishIntoHistory = "WITH done AS (SELECT * FROM unnest(?::bigint[], ?::int[], ?::int[])"
                + " AS d(id, attempt, total_attempt)),"
                + " moved AS (DELETE FROM " + t + " t USING done WHERE t.id = done.id" + ofTasks("t.") + " RETURNING t.*)"
                + " INSERT INTO " + table.historyTable() + " (id, queue_name, payload, created_at, attempt,"
                + " reenqueue_attempt, total_attempt" + keptColumns + ")"
                + " SELECT m.id, m.queue_name, m.payload, m.created_at, d.attempt, m.reenqueue_attempt, d.total_attempt"
                + keptColumns.replace(", ", ", m.") + " FROM moved m JOIN done d ON d.id = m.id";
        finishIntoHistoryWithoutFlush = "SELECT " + NO_FLUSH + "; " + finishIntoHistory;
        // Sets the counters explicitly so a retry recorded after a rolled-back claim still counts the attempt.
        // Retries, re-enqueues and dead letters are fenced on the claim's total attempt, as the heartbeat and the
        // release are: a handler whose lease ran out and whose task another worker claimed since (a higher total) must
        // not rewind its counters, take its lease, or dead-letter it under that worker. The total, not the attempt: a
        // re-enqueue sets the attempt back to 0, so the next claim's attempt could equal a late handler's again. The
        // total before the claimed one is the row as an exactly-once claim's rollback leaves it.
        // params: bigint[] ids, bigint[] delays in microseconds, int[] attempts, int[] total attempts, [queue, lowest id, highest id]
        String retried = " FROM unnest(?::bigint[], ?::bigint[], ?::int[], ?::int[]) AS r(id, delay, attempt, total_attempt)"
                + " WHERE t.id = r.id AND t.total_attempt BETWEEN r.total_attempt - 1 AND r.total_attempt" + ofTasks("t.");
        retry = "UPDATE " + t + " t SET next_process_at = now() + r.delay * interval '1 microsecond',"
                + " attempt = r.attempt, total_attempt = r.total_attempt" + retried;
        retryCounting = "UPDATE " + t + " t SET next_process_at = now() + r.delay * interval '1 microsecond',"
                + " attempt = t.attempt + 1, total_attempt = t.total_attempt + 1" + retried;
        // Fenced on the claimed total attempt as retry is. params: bigint[] ids, bigint[] delays in microseconds, int[]
        // total attempts, [queue, lowest id, highest id]
        reenqueue = "UPDATE " + t + " t SET next_process_at = now() + r.delay * interval '1 microsecond',"
                + " attempt = 0, reenqueue_attempt = t.reenqueue_attempt + 1"
                + " FROM unnest(?::bigint[], ?::bigint[], ?::int[]) AS r(id, delay, total_attempt)"
                + " WHERE t.id = r.id AND t.total_attempt BETWEEN r.total_attempt - 1 AND r.total_attempt" + ofTasks("t.");
        // Hands claimed but unstarted tasks back without counting the attempt; only those still held by the claim's
        // lease (at least once: the total attempt is the claimed one), not those another worker claimed since. The ids
        // stay one id = ANY(...), which the plans of statements by id are checked for; each row's claimed total attempt
        // is looked up by its place in the ids. params: bigint[] ids, int[] total attempts, bigint[] ids, [queue, lowest
        // id, highest id]
        release = "UPDATE " + t + " SET next_process_at = now(), attempt = greatest(attempt - 1, 0),"
                + " total_attempt = greatest(total_attempt - 1, 0) WHERE id = ANY(?::bigint[])"
                + " AND total_attempt = (?::int[])[array_position(?::bigint[], id)]" + ofTasks("");
        // The heartbeat of a running batch: only a lease this claim still holds (same total attempt) is pushed forward.
        // params: lease in microseconds, bigint[] ids, int[] total attempts, [queue, lowest id, highest id]
        extendLeases = "UPDATE " + t + " t SET next_process_at = now() + ? * interval '1 microsecond'"
                + " FROM unnest(?::bigint[], ?::int[]) AS h(id, total_attempt)"
                + " WHERE t.id = h.id AND t.total_attempt = h.total_attempt" + ofTasks("t.");
        // params: bigint[] ids, int[] attempts, int[] total attempts, text[] errors, [queue, lowest id, highest id]
        String movedHeaders = headers ? ", headers" : "";
        String moved = (deadPriority ? ", priority" : "") + movedHeaders; // what a dead letter keeps of its task
        deadLetter = "WITH failed AS (SELECT * FROM unnest(?::bigint[], ?::int[], ?::int[], ?::text[])"
                + " AS f(id, attempt, total_attempt, error)),"
                + " moved AS (DELETE FROM " + t + " t USING failed WHERE t.id = failed.id"
                + " AND t.total_attempt BETWEEN failed.total_attempt - 1 AND failed.total_attempt" + ofTasks("t.")
                + " RETURNING t.*)"
                + " INSERT INTO " + dead + " (id, queue_name, payload, created_at, attempt, reenqueue_attempt,"
                + " total_attempt, last_error" + moved + ")"
                + " SELECT m.id, m.queue_name, m.payload, m.created_at, f.attempt, m.reenqueue_attempt,"
                + " f.total_attempt, f.error" + moved.replace(", ", ", m.")
                + " FROM moved m JOIN failed f ON f.id = m.id";
        // params: queue, after id, limit
        listDead = "SELECT id, queue_name, payload, created_at, attempt, reenqueue_attempt, total_attempt,"
                + " failed_at, last_error" + movedHeaders + " FROM " + dead
                + " WHERE queue_name = ? AND id > ? ORDER BY id LIMIT ?";
        countDead = "SELECT count(*) FROM " + dead + " WHERE queue_name = ?";
        // A requeued task keeps its id, so that an operator can follow it (and its idempotency key still names it).
        String requeue = " INSERT INTO " + t + " (id, queue_name, payload, created_at, reenqueue_attempt, total_attempt"
                + moved + ") SELECT id, queue_name, payload, created_at, reenqueue_attempt, total_attempt"
                + moved + " FROM moved";
        // params: queue, bigint[] ids
        requeueDead = "WITH moved AS (DELETE FROM " + dead + " WHERE queue_name = ? AND id = ANY(?::bigint[])"
                + " RETURNING *)" + requeue;
        // "All" goes a chunk of the oldest at a time, each its own transaction: one statement over millions of dead
        // letters would hold their locks, and the xmin horizon that vacuum of the queue waits for, for its whole run.
        // params: queue, queue
        String chunk = "id = ANY(ARRAY(SELECT id FROM " + dead + " WHERE queue_name = ? ORDER BY id LIMIT "
                + DeadLetters.MAX_PAGE + "))";
        requeueAllDead = "WITH moved AS (DELETE FROM " + dead + " WHERE queue_name = ? AND " + chunk + " RETURNING *)"
                + requeue;
        deleteDead = "DELETE FROM " + dead + " WHERE queue_name = ? AND id = ANY(?::bigint[])";
        deleteAllDead = "DELETE FROM " + dead + " WHERE queue_name = ? AND " + chunk;
        // params: queue
        // A chunk of keys older than the retention whose task has left the queue (a key of a waiting or running task
        // keeps it unique, see Uniqueness); ctid keeps it to the rows the subquery found. OFFSET 0 keeps the NOT EXISTS
        // a look-up by id per key: as an anti join, a generic plan read the whole queue's index for every chunk.
        // params: age in microseconds
        purgeKeys = "DELETE FROM " + table.keysTable() + " WHERE ctid = ANY(ARRAY(SELECT k.ctid FROM " + table.keysTable()
                + " k WHERE k.created_at < now() - ? * interval '1 microsecond' AND NOT EXISTS (SELECT 1 FROM " + t
                + " WHERE id = k.task_id" + (byIdNamesQueue ? " AND queue_name = k.queue_name" : "") + " OFFSET 0)"
                + " LIMIT " + IdempotencyKeys.PURGE_CHUNK + "))";
        String due = "next_process_at <= now()";
        stats = "SELECT count(*) FILTER (WHERE " + due + "),"
                + " extract(epoch FROM now() - min(created_at) FILTER (WHERE " + due + ")),"
                + " count(*) FILTER (WHERE NOT " + due + " AND attempt > 0),"
                + " count(*) FILTER (WHERE NOT " + due + " AND attempt = 0),"
                + " (SELECT count(*) FROM " + dead + " WHERE queue_name = ?),"
                + " EXISTS (SELECT 1 FROM " + table.pausesTable() + " WHERE queue_name = ?)"
                + " FROM " + t + " WHERE queue_name = ?";
        // A waiting task is due and unclaimed, or due later and never claimed; SKIP LOCKED leaves alone one that an
        // exactly-once batch holds. A leased task (claimed, or waiting out a retry) is the worker's. A scalar
        // subquery, so that the outer statement looks the id up as one value: as an array, a generic plan on
        // PostgreSQL 15 read the whole queue from the key (queue_name, id) and filtered the id. A reschedule changes no
        // key column, so it locks as its update does (FOR NO KEY UPDATE): a unique enqueue's FOR KEY SHARE then waits
        // and replaces the task, where FOR UPDATE made it read the task as running and store a second one.
        String waiting = "(SELECT id FROM " + t + " WHERE queue_name = ? AND id = %s"
                + " AND (" + due + " OR attempt = 0) FOR %s SKIP LOCKED)";
        taskOfKey = "SELECT task_id FROM " + table.keysTable() + " WHERE queue_name = ? AND key = ?";
        String byKey = "(" + taskOfKey + ")";
        cancel = "DELETE FROM " + t + " WHERE id = " + waiting.formatted("?", "UPDATE") + ofQueue();
        cancelByKey = "DELETE FROM " + t + " WHERE id = " + waiting.formatted(byKey, "UPDATE") + ofQueue();
        reschedule = "UPDATE " + t + " SET next_process_at = ? WHERE id = " + waiting.formatted("?", "NO KEY UPDATE")
                + ofQueue();
        // By id, as every layout's primary key or unique index reads it, and the queue, so that Citus routes it.
        find = "SELECT id, payload, created_at, next_process_at, attempt, total_attempt, NULL,"
                + " CASE WHEN " + due + " THEN 'WAITING' WHEN attempt > 0 THEN 'LEASED' ELSE 'SCHEDULED' END"
                + " FROM " + t + " WHERE id = ? AND queue_name = ?"
                + " UNION ALL SELECT id, payload, created_at, failed_at, attempt, total_attempt, last_error,"
                + " 'DEAD' FROM " + dead + " WHERE id = ? AND queue_name = ?";
        findDone = "SELECT id, payload, created_at, finished_at, attempt, total_attempt, NULL, 'DONE'"
                + " FROM " + table.historyTable() + " WHERE id = ? AND queue_name = ?";
        pause = "INSERT INTO " + table.pausesTable() + " (queue_name) VALUES (?) ON CONFLICT DO NOTHING";
        resume = "DELETE FROM " + table.pausesTable() + " WHERE queue_name = ?";
        pausedQueues = "SELECT queue_name FROM " + table.pausesTable();
        depth = "SELECT count(*), extract(epoch FROM now() - min(created_at) FILTER (WHERE " + due + ")) FROM " + t
                + " WHERE queue_name = ?";
        peek = "SELECT " + taskColumns + " FROM " + t + " WHERE queue_name = ? ORDER BY id LIMIT ?";
        nextDue = nextDue(t, table.layout());
        purge = "WITH purged AS (DELETE FROM " + t + " WHERE queue_name = ? RETURNING " + taskColumns + ")"
                + " SELECT " + taskColumns + " FROM purged ORDER BY id";
    }

    /**
     * The parameters of a statement on {@code tasks} of queue {@code queueName} by id ({@link #ofTasks}):
     * {@code params}, then where the statement takes them, the queue name and the lowest and highest of the ids (and
     * by priority, the tasks' priorities, an array made on {@code c}).
     */
    Object[] byTaskIds(Connection c, String queueName, List<Task> tasks, Object... params) throws SQLException {
        if (!byIdNamesQueue) {
            return params;
        }
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (Task task : tasks) {
            lowest = Math.min(lowest, task.id());
            highest = Math.max(highest, task.id());
        }
        Object[] withQueue = Arrays.copyOf(params, params.length + (priorities ? 4 : 3));
        withQueue[params.length] = queueName;
        withQueue[params.length + 1] = lowest;
        withQueue[params.length + 2] = highest;
        if (priorities) {
            withQueue[params.length + 3] = Jdbc.ints(c, tasks.stream().mapToInt(Task::priority).distinct().toArray());
        }
        return withQueue;
    }

    /** The parameters of a statement by id of an operator's, with {@code queueName} last where it takes it. */
    Object[] byId(String queueName, Object... params) {
        if (!byIdNamesQueue) {
            return params;
        }
        Object[] withQueue = Arrays.copyOf(params, params.length + 1);
        withQueue[params.length] = queueName;
        return withQueue;
    }

    /**
     * Microseconds until the earliest task of the queue not yet due (a retry, a delayed task, a lease
     * running out) becomes due, by the database's clock; null when there is none. With a claim index
     * on (queue_name, next_process_at) that is the index's first entry after now. An id-ordered
     * layout keeps due times out of its index: it looks at the first {@value #NEXT_DUE_ROWS} tasks of
     * the queue in claim order only (by priority: the heads of the highest levels), where retries, which
     * keep their ids, and leases wait. Without a claim index it would scan the table, so there is no
     * look-up. params: queue
     */
    private static String nextDue(String t, Layout layout) {
        String until = "SELECT (extract(epoch FROM min(next_process_at) - now()) * 1000000)::bigint";
        return switch (layout.claimIndex()) {
            case NONE -> null;
            case NEXT_PROCESS_AT, NEXT_PROCESS_AT_UNIQUE ->
                    until + " FROM " + t + " WHERE queue_name = ? AND next_process_at > now()";
            case QUEUE_ID, QUEUE_ID_COVERING, PRIMARY_KEY, PRIORITY_ID, PRIORITY_KEY -> until
                    + " FROM (SELECT next_process_at FROM " + t + " WHERE queue_name = ? ORDER BY "
                    + layout.claimOrder().orderBy() + " LIMIT " + NEXT_DUE_ROWS + ") head WHERE next_process_at > now()";
        };
    }

    /**
     * {@link #nextDue} after the claim's planner settings, as one round trip and one implicit
     * transaction (its result is the second); null where the layout has no cheap look-up.
     */
    String nextDueComposite() {
        return nextDue == null ? null : plannerSettings(false) + "; " + nextDue;
    }

    /**
     * The lock ageing takes on the tasks it raises. It passes over claimed tasks, and on {@code dbq_seq_priority}
     * not over a unique enqueue's look at one (a key share). Where the priority is part of the unique key, raising it
     * is a key update, which waits for such a look: there the tasks are locked as for one, so that a task under a
     * look is passed over too; taken at no-key strength, the update waited, with no timeout, for the transaction the
     * enqueue joined, and every claim meanwhile skipped the tasks ageing held.
     */
    private static String ageingLock(Layout layout) {
        return layout.claimIndex() == Layout.ClaimIndex.PRIORITY_KEY ? " FOR UPDATE" : " FOR NO KEY UPDATE";
    }

    /** A task from a row of {@link #taskColumns}. */
    Task task(ResultSet rs) throws SQLException {
        long id = rs.getLong(1);
        return new Task(id, rs.getString(2), rs.getString(3), instant(rs.getTimestamp(4)), rs.getInt(5),
                rs.getInt(6), rs.getInt(7), priorities ? rs.getInt(8) : 0,
                headers ? TaskHeaders.read(id, rs.getString(priorities ? 9 : 8)) : Map.of());
    }

    /** A timestamp column's instant; null for NULL (a {@code created_at} the application's own SQL left empty). */
    static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /**
     * The enqueue of tasks with idempotency keys, in one statement: each task's id is drawn from the
     * table's sequence first, the keys are inserted with those ids, and only the tasks whose key was
     * new are inserted; a key that exists already (committed, or committed by a concurrent enqueue
     * this one waited for) keeps its first task's id. ON CONFLICT DO UPDATE rather than DO NOTHING:
     * only the update returns a conflicting row that this statement's snapshot cannot see. Keys must be
     * distinct within one statement. params: text[] keys, text[] payloads, text[] request fingerprints
     * (null elements: none), queue (keys), queue (tasks), [delay in microseconds, when {@code dueAt}
     * takes it], [the new tasks' headers as JSON, with {@code headers}]; returns per input row, in order, the task id, whether this statement stored it, and
     * whether the key was stored with another fingerprint. Keys are inserted in key order, so that two
     * batches sharing keys lock them in the same order and cannot deadlock.
     */
    private static String keyedEnqueue(QueueTable table, String dueAt, boolean headers) {
        String t = table.name();
        return "WITH input AS MATERIALIZED (SELECT u.k, u.p, u.h, u.n,"
                + " nextval((SELECT pg_get_serial_sequence('" + t + "', 'id'))::regclass) AS id"
                + " FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(k, p, h, n)),"
                + " keyed AS (INSERT INTO " + table.keysTable() + " AS x (queue_name, key, task_id, request_hash)"
                + " SELECT ?, k, id, h FROM input ORDER BY k"
                + " ON CONFLICT (queue_name, key) DO UPDATE SET key = x.key RETURNING x.key, x.task_id, x.request_hash),"
                + " stored AS (INSERT INTO " + t + " (id, queue_name, payload, next_process_at" + (headers ? ", headers" : "")
                + ") SELECT i.id, ?, i.p, " + dueAt + (headers ? ", ?::jsonb" : "")
                + " FROM input i JOIN keyed ON keyed.key = i.k AND keyed.task_id = i.id)"
                + " SELECT keyed.task_id, keyed.task_id = i.id, coalesce(keyed.request_hash <> i.h, false)"
                + " FROM input i JOIN keyed ON keyed.key = i.k ORDER BY i.n";
    }

    /**
     * The keyed enqueue of every {@link Uniqueness} but the default (that is {@link #keyedEnqueue}), in one
     * statement. The keys that exist are locked first, in key order, so that producers of one key take turns;
     * a key's task is then locked if it is still in the queue (FOR KEY SHARE SKIP LOCKED: one that a worker holds,
     * locked FOR UPDATE by a claim or an exactly-once batch, is running; an update that changes no key column, as an
     * operator's reschedule or ageing, does not conflict, and its task still counts as waiting), and read as it is
     * now. By that state and the mode, the key is
     * free (it is pointed at a new task, stored with it), or its waiting task is replaced (payload and due
     * time), or the key answers with its task as it is. Only a task never claimed is replaced: one claimed before and
     * due again (a retry come due, or a lease that ran out) may still be in its handler, whose finish would delete
     * the replacement, so a replacing mode counts it as running. A new key is inserted as {@link #keyedEnqueue} does.
     *
     * <p>A key that changed between the statement's snapshot and its lock (another producer pointed it at a
     * task this snapshot cannot see, or the purge removed it), and a new key another producer inserted
     * meanwhile when the mode would replace its task, are answered {@code retry}: the caller sends those keys
     * again, in a statement whose snapshot sees that producer's commit.
     *
     * <p>params: delay in microseconds, queue, frees running, frees gone, replaces, [headers as JSON, with
     * {@code headers}: of the new tasks and the replaced ones], text[] keys (distinct), text[] payloads, text[]
     * request fingerprints; returns per input row, in order, the task id, whether this
     * statement stored a new task, whether it replaced the waiting one, whether the key answers with its task
     * as stored with another fingerprint, and whether to retry.
     */
    private static String uniqueEnqueue(QueueTable table, String dueAt, boolean namesQueue, boolean headers) {
        // dueAt: of input row u, by the mode's delay m.delay. The tables are read by key or id = ANY(ARRAY(...)), an
        // index look-up whatever the planner guesses of the CTEs' sizes, never joined to them whole. Where the key is
        // (queue_name, id), the look-ups of the keys' tasks also take the range of their ids, for the reason ofTasks
        // gives: a generic plan on PostgreSQL 15 read the whole queue from the key and filtered the ids.
        String t = table.name();
        String keys = table.keysTable();
        String ofKnownTasks = namesQueue ? " AND t.queue_name = (SELECT q FROM mode)"
                + " AND t.id BETWEEN (SELECT min(task_id) FROM known) AND (SELECT max(task_id) FROM known)" : "";
        return "WITH mode AS (SELECT ?::bigint AS delay, ?::text AS q, ?::boolean AS frees_running,"
                + " ?::boolean AS frees_gone, ?::boolean AS replaces" + (headers ? ", ?::jsonb AS headers" : "") + "),"
                + " input AS MATERIALIZED (SELECT u.k, u.p, u.h, u.n, " + dueAt + " AS due,"
                + " nextval((SELECT pg_get_serial_sequence('" + t + "', 'id'))::regclass) AS id"
                + " FROM mode m, unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(k, p, h, n)),"
                // the keys as this statement's snapshot sees them, and as they are now, locked
                + " known AS MATERIALIZED (SELECT x.key, x.task_id, x.request_hash FROM " + keys + " x"
                + " WHERE x.queue_name = (SELECT q FROM mode) AND x.key = ANY(ARRAY(SELECT k FROM input))),"
                + " held AS MATERIALIZED (SELECT x.key, x.task_id FROM " + keys + " x"
                + " WHERE x.queue_name = (SELECT q FROM mode) AND x.key = ANY(ARRAY(SELECT k FROM input))"
                + " ORDER BY x.key FOR UPDATE),"
                // the tasks of unchanged keys that are in the queue and no worker holds, as they are now, locked
                + " alive AS MATERIALIZED (SELECT t.id, (t.next_process_at <= now() OR t.attempt = 0) AS waiting,"
                + " t.attempt = 0 AS unclaimed"
                + " FROM " + t + " t WHERE t.id = ANY(ARRAY(SELECT h.task_id FROM held h"
                + " JOIN known k ON k.key = h.key AND k.task_id = h.task_id))" + ofKnownTasks + " FOR KEY SHARE SKIP LOCKED),"
                + " present AS MATERIALIZED (SELECT t.id FROM " + t + " t"
                + " WHERE t.id = ANY(ARRAY(SELECT task_id FROM known))" + ofKnownTasks + "),"
                + " state AS MATERIALIZED (SELECT i.*, k.task_id AS old_id, k.request_hash AS old_h,"
                + " CASE WHEN k.task_id IS NULL THEN 'new' WHEN h.task_id IS DISTINCT FROM k.task_id THEN 'stale'"
                + " WHEN a.id IS NULL AND p.id IS NULL THEN 'gone'"
                + " WHEN a.waiting AND (a.unclaimed OR NOT (SELECT replaces FROM mode)) THEN 'waiting' ELSE 'running' END AS s"
                + " FROM input i LEFT JOIN known k ON k.key = i.k LEFT JOIN held h ON h.key = i.k"
                + " LEFT JOIN alive a ON a.id = k.task_id LEFT JOIN present p ON p.id = k.task_id),"
                + " decided AS MATERIALIZED (SELECT s.*, (s.s = 'gone' AND m.frees_gone OR s.s = 'running' AND m.frees_running)"
                + " AS free, (s.s = 'waiting' AND m.replaces) AS replacing FROM state s, mode m),"
                + " fresh AS (INSERT INTO " + keys + " AS x (queue_name, key, task_id, request_hash)"
                + " SELECT (SELECT q FROM mode), k, id, h FROM decided WHERE s = 'new' ORDER BY k"
                + " ON CONFLICT (queue_name, key) DO UPDATE SET key = x.key RETURNING x.key, x.task_id, x.request_hash),"
                // a free key names its new task, and a key free or replaced the request it stands for now
                + " rekeyed AS (UPDATE " + keys + " x SET task_id = CASE WHEN d.free THEN d.id ELSE x.task_id END,"
                + " created_at = CASE WHEN d.free THEN now() ELSE x.created_at END, request_hash = d.h FROM decided d"
                + " WHERE x.queue_name = (SELECT q FROM mode)"
                + " AND x.key = ANY(ARRAY(SELECT k FROM decided WHERE free OR replacing)) AND x.key = d.k"
                + " RETURNING x.key, x.task_id),"
                + " replaced AS (UPDATE " + t + " t SET payload = d.p, next_process_at = d.due"
                + (headers ? ", headers = (SELECT headers FROM mode)" : "") + " FROM decided d"
                + " WHERE t.id = ANY(ARRAY(SELECT old_id FROM decided WHERE replacing)) AND t.id = d.old_id" + ofKnownTasks
                + " RETURNING t.id),"
                + " stored AS (INSERT INTO " + t + " (id, queue_name, payload, next_process_at"
                + (headers ? ", headers" : "") + ") SELECT id, (SELECT q FROM mode), p, due"
                + (headers ? ", (SELECT headers FROM mode)" : "") + " FROM decided"
                + " WHERE id IN (SELECT task_id FROM fresh UNION ALL SELECT task_id FROM rekeyed))"
                + " SELECT coalesce(f.task_id, rk.task_id, d.old_id), f.task_id = d.id OR rk.task_id = d.id,"
                + " r.id IS NOT NULL,"
                + " coalesce(NOT d.free AND NOT d.replacing AND coalesce(f.request_hash, d.old_h) <> d.h, false),"
                + " d.s = 'stale' OR (f.task_id <> d.id AND (SELECT replaces FROM mode))"
                + " FROM decided d LEFT JOIN fresh f ON f.key = d.k LEFT JOIN rekeyed rk ON rk.key = d.k"
                + " LEFT JOIN replaced r ON r.id = d.old_id ORDER BY d.n";
    }

    /**
     * The claim of up to {@code limit} due tasks: with a lease (at least once), locked for the
     * caller's transaction (exactly once), or deleted (at most once). It is sent as one round trip
     * after {@link #claimSettings}; params: [lease length in microseconds for at least once,] {@link #bindDue}'s,
     * [queue: the update or delete of the picked rows, where {@link #byIdNamesQueue}].
     *
     * <p>The due rows are picked in an array subquery ({@code id = ANY(ARRAY(...))}), which PostgreSQL
     * runs once. Written as {@code id IN (subquery)}, the planner may turn it into a semi join that
     * runs the locking subquery again for every row of the table, locking a batch each time; on a
     * stock server, statistics taken while the queue was empty made one claim take 95 s
     * (docs/performance.md, "Stock PostgreSQL").
     *
     * <p>The limit is written into the statement, not bound: with a bound limit the planner cannot
     * cost a generic plan and plans every claim anew, which on a partitioned table costs more than
     * the claim itself. It is the batch size, a validated number, so the statement stays one per
     * queue and mode.
     */
    String claim(Delivery delivery, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("claim limit must be at least 1, was " + limit);
        }
        return delivery.claim(this, limit);
    }

    /** At least once: the lease. A claimed task becomes due again when it expires, so a dead consumer's tasks reappear. */
    String leasingClaim(int limit) {
        if (byIdNamesQueue) {
            // the lease first, so that the parameters keep their order
            return "WITH lease AS (SELECT ? * interval '1 microsecond' AS span), " + picked(limit) + " UPDATE "
                    + tableName + leaseFor("(SELECT span FROM lease)") + " WHERE id = ANY(ARRAY(SELECT id FROM picked))"
                    + pickedRange + ofQueue() + " RETURNING " + taskColumns;
        }
        return "UPDATE " + tableName + leaseFor("? * interval '1 microsecond'") + " WHERE id = ANY(ARRAY("
                + due("id", limit) + ")) RETURNING " + taskColumns;
    }

    /** The lease's SET clause, the lease lasting {@code span} (an interval expression). */
    private static String leaseFor(String span) {
        return " SET next_process_at = now() + " + span + ", attempt = attempt + 1, total_attempt = total_attempt + 1";
    }

    /** The claim's due rows, locked, as the CTE {@code picked} that {@link #pickedRange} reads. */
    private String picked(int limit) {
        return "picked AS MATERIALIZED (" + due(pickedColumns, limit) + ")";
    }

    /**
     * The first {@code limit} due tasks in claim order that no other claim holds, locked, as {@code columns}; params:
     * {@link #bindDue}. In sequence order the scan starts at the claim's {@link ClaimCursor.Floor}. By id, at its id.
     * By priority, the floor's {@link ClaimCursor.Floor#ranges ranges} of priorities in turn, each from its lowest id
     * (an index condition, so that the dead and leased entries below a level's floor are passed over): a nested loop
     * over the ranges, bound as arrays (in their order: the order of a function's rows with ordinality needs no sort),
     * runs one index scan under a LIMIT for each, and stops once the batch is full. So one statement serves every
     * floor, rather than a union of a scan per range whose text changed with the levels that had floors: each text a
     * statement of its own to prepare and plan, and every part of it initialised for every claim (six index scans for
     * four levels, most read only when those before fell short). A range is written as {@code priority >= ? AND
     * priority <= ?}, never as an equality: with {@code priority = ?} the planner would know a level's priority, so the
     * primary key on id would give its order too, and on a backlog's statistics it read a level from the floor by the
     * primary key, fetching every other level's rows there to filter them out. A range leaves only the claim index in
     * claim order (sorting is off), and the btree still starts at the floor.
     */
    private String due(String columns, int limit) {
        String lock = " LIMIT " + limit + " FOR UPDATE SKIP LOCKED";
        String inOrder = " AND next_process_at <= now() ORDER BY " + orderBy + lock;
        String from = "SELECT " + columns + " FROM " + tableName + " WHERE queue_name = ?";
        return switch (claimOrder) {
            case NEXT_PROCESS_AT -> from + inOrder;
            case ID -> from + " AND id >= ?" + inOrder;
            case PRIORITY -> "SELECT part.* FROM unnest(?::int[], ?::int[], ?::bigint[]) WITH ORDINALITY"
                    + " AS r(lowest, highest, from_id, n), LATERAL (" + from + " AND priority >= r.lowest"
                    + " AND priority <= r.highest AND id >= r.from_id" + inOrder + ") AS part ORDER BY r.n LIMIT " + limit;
        };
    }

    /**
     * Binds the parameters of {@link #due} for a claim from {@code floor} from {@code p}: the queue, and the floor where
     * the claim order has one (by priority, its ranges first); returns the next parameter's index.
     */
    int bindDue(PreparedStatement claim, int p, String queueName, ClaimCursor.Floor floor) throws SQLException {
        if (claimOrder == ClaimOrder.PRIORITY) {
            List<ClaimCursor.Range> ranges = floor.ranges();
            Connection c = claim.getConnection();
            claim.setArray(p++, Jdbc.ints(c, ranges.stream().mapToInt(ClaimCursor.Range::lowest).toArray()));
            claim.setArray(p++, Jdbc.ints(c, ranges.stream().mapToInt(ClaimCursor.Range::highest).toArray()));
            claim.setArray(p++, Jdbc.longs(c, ranges.stream().mapToLong(ClaimCursor.Range::fromId).toArray()));
        }
        claim.setString(p++, queueName);
        if (claimOrder == ClaimOrder.ID) {
            claim.setLong(p++, floor.id(0));
        }
        return p;
    }

    /**
     * Exactly once: the row locks last as long as the batch's transaction, and a rollback would undo a
     * lease and the attempt count alike, so neither is written; the result carries the counted attempt.
     */
    String lockingClaim(int limit) {
        return due("id, queue_name, payload, created_at, attempt + 1, reenqueue_attempt, total_attempt + 1"
                + (priorities ? ", priority" : "") + (headers ? ", headers" : ""), limit);
    }

    /** How many due tasks of the keys below their limit a {@link #keyLimitedClaim} looks at, per task it may take. */
    static final int KEY_SCAN_FACTOR = 10;

    /**
     * At least once under a per-key limit ({@link QueueLimits#maxPerKey()}), in the transaction that holds the
     * queue's limits row ({@link ClaimLimiter}), so that claims of the queue take turns and each sees the places
     * the one before it took. It counts the places each key holds in flight, walks the due tasks in claim order
     * past the keys at their limit (so that a full key does not hold back the others behind it), looks at up to
     * {@value #KEY_SCAN_FACTOR} times {@code limit} of them, and leases, in claim order, those that leave no key
     * above its limit, two of one key in the batch counting as two. A task without the key's header is not
     * limited. Without a floor: a full key's tasks stay below any floor. The picked tasks are then locked as every
     * claim locks its tasks (FOR UPDATE SKIP LOCKED), and only those still due with the key they were counted
     * under are leased: an update alone would lock them FOR NO KEY UPDATE on most layouts, which a replacing
     * unique enqueue's FOR KEY SHARE does not see as a claim, so it would read a task being leased as waiting and
     * then write its payload over the leased one's. Runs after {@link #claimSettings}.
     * params: queue, key header, queue, key header, key header, max per key, max per key, key header, [queue],
     * lease in microseconds, [queue]
     */
    String keyLimitedClaim(int limit) {
        return "WITH busy AS MATERIALIZED (SELECT concurrency_key AS k, count(*) AS n FROM " + inFlightTable
                + " WHERE queue_name = ? AND concurrency_key IS NOT NULL AND expires_at > clock_timestamp()"
                + " GROUP BY concurrency_key),"
                + " head AS MATERIALIZED (SELECT " + orderColumns + ", headers ->> ? AS k FROM " + tableName
                + " WHERE queue_name = ? AND next_process_at <= now()"
                + " AND (headers ->> ? IS NULL OR headers ->> ? <> ALL(ARRAY(SELECT k FROM busy WHERE n >= ?)))"
                + " ORDER BY " + orderBy + " LIMIT " + (long) limit * KEY_SCAN_FACTOR + "),"
                + " picked AS MATERIALIZED (SELECT h.id, h.k" + (priorities ? ", h.priority" : "")
                + " FROM (SELECT head.*, row_number() OVER (PARTITION BY k ORDER BY " + orderBy
                + ") AS r FROM head) h LEFT JOIN busy b ON b.k = h.k WHERE h.k IS NULL OR h.r + coalesce(b.n, 0) <= ?"
                + " ORDER BY " + orderBy + " LIMIT " + limit + "),"
                + " locked AS MATERIALIZED (SELECT t.id FROM " + tableName + " t"
                + " WHERE t.id = ANY(ARRAY(SELECT id FROM picked)) AND t.next_process_at <= now()"
                + " AND t.headers ->> ? IS NOT DISTINCT FROM (SELECT p.k FROM picked p WHERE p.id = t.id)"
                + (byIdNamesQueue ? pickedRange : "") + ofQueue() + " FOR UPDATE SKIP LOCKED)"
                + " UPDATE " + tableName + leaseFor("? * interval '1 microsecond'")
                + " WHERE id = ANY(ARRAY(SELECT id FROM locked))"
                + (byIdNamesQueue ? pickedRange : "") + ofQueue() + " RETURNING " + taskColumns;
    }

    /** At most once: the task is gone once claimed, so this delete must be durable before it is handed out. */
    String deletingClaim(int limit) {
        if (byIdNamesQueue) {
            return "WITH " + picked(limit) + " DELETE FROM " + tableName + " WHERE id = ANY(ARRAY(SELECT id FROM picked))"
                    + pickedRange + ofQueue() + " RETURNING " + taskColumns;
        }
        return "DELETE FROM " + tableName + " WHERE id = ANY(ARRAY(" + due("id", limit) + ")) RETURNING " + taskColumns;
    }

    private String ofQueue() {
        return byIdNamesQueue ? " AND queue_name = ?" : "";
    }

    /**
     * {@link #ofQueue} of a statement on a worker's tasks by id, with the range of their ids: a generic plan costed on
     * statistics taken while the queue was almost empty may scan the key by queue_name alone and filter the ids,
     * reading the whole queue (a lab run on PostgreSQL 15: 10,000 rows read per finish of 100, 1.2 ms instead of
     * 0.3, growing with the backlog); a range on id bounds such a scan to the batch. {@code alias}: the table's,
     * with its dot, where the statement joins another row source with an id. By priority, where the key is the
     * claim index, the tasks' priorities too, so that the key is read at their levels only: ageing changes only a due
     * task's priority, never a held one's (a task whose lease ran out may be missed, and runs again, as at least once
     * allows). The priorities are a list, not a range: PostgreSQL 18 reads a range in the key with a skip scan, whose
     * bookkeeping made a finish of 100 tasks of one level 12 % slower (0.114 ms against 0.100 on a scratch server).
     * params: [queue, lowest id, highest id, [int[] priorities]]
     */
    private String ofTasks(String alias) {
        return !byIdNamesQueue ? "" : " AND " + alias + "queue_name = ? AND " + alias + "id BETWEEN ? AND ?"
                + (priorities ? " AND " + alias + "priority = ANY(?::int[])" : "");
    }

    /**
     * Runs just before the claim, in its transaction, so that it holds for the claim's planning and
     * commit only. The planner is kept on the claim index: a queue's statistics are taken by vacuum
     * whenever it happens to run, often while the table is almost empty, and a plan costed on them
     * (a bitmap scan and a sort of every due row, a sequential scan) is fast on an empty queue and
     * hundreds of times slower on a backlog. Without a claim index there is nothing to keep to.
     *
     * <p>At least once, the lease's commit does not wait for a WAL flush: a lease lost with the
     * server is a claim that never happened, so the task is delivered again, as at least once
     * allows, and the acknowledgement that follows a kept lease is a durable commit that flushes
     * the lease with it. Exactly once, the settings are saved first and put back by
     * {@link #restoreSettings}, so that the handler's statements in the same transaction run with
     * the caller's. Null when nothing needs setting.
     */
    String claimSettings(Delivery delivery) {
        return delivery.claimSettings(this);
    }

    /**
     * The planner settings of {@link #claimSettings}, each saved first when {@code saveCallers}, then
     * {@code more} calls; null when there is nothing to set.
     */
    String plannerSettings(boolean saveCallers, String... more) {
        List<String> calls = new ArrayList<>();
        if (claimIndexed) {
            for (Setting setting : PLANNER_SETTINGS) {
                if (saveCallers) {
                    calls.add("set_config('" + SAVED + setting.name() + "', current_setting('" + setting.name()
                            + "'), true)");
                }
                calls.add("set_config('" + setting.name() + "', '" + setting.value() + "', true)");
            }
        }
        calls.addAll(List.of(more));
        return calls.isEmpty() ? null : "SELECT " + String.join(", ", calls);
    }

    /**
     * The claim as the library sends it: {@link #claimSettings}, {@link #claim} and, exactly once,
     * {@link #restoreSettings} as one composite statement, one round trip and one implicit
     * transaction. Its claim's rows are the result after {@link #resultsBeforeClaim} others.
     */
    String claimComposite(Delivery delivery, int limit) {
        String settings = claimSettings(delivery);
        String after = delivery.afterClaim(this);
        return (settings == null ? "" : settings + "; ") + claim(delivery, limit) + (after == null ? "" : "; " + after);
    }

    /** How many results precede the claim's in {@link #claimComposite}. */
    int resultsBeforeClaim(Delivery delivery) {
        return claimSettings(delivery) == null ? 0 : 1;
    }

    /** Exactly once, after the claim: the caller's planner settings again. Null when none were changed. */
    String restoreSettings() {
        if (!claimIndexed) {
            return null;
        }
        return "SELECT " + String.join(", ", PLANNER_SETTINGS.stream()
                .map(s -> "set_config('" + s.name() + "', current_setting('" + SAVED + s.name() + "'), true)").toList());
    }
}
