package io.dbqueue.bench.driver.postgres;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.ClaimOrder;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import java.util.ArrayList;
import java.util.List;

/**
 * A queue's statements, written out once for the ceilings (the raw-SQL loop and pgbench): they are
 * the statements the library runs (batch insert of an unnested array; a claim with FOR UPDATE SKIP
 * LOCKED in an array subquery and the batch size as its limit that, by delivery mode, leases the
 * tasks, only locks them, or deletes them; delete by an array of ids, on a partitioned table in
 * exactly-once mode after switching the transaction to generic plans), without the library. Before
 * the claim, in its transaction, run {@link #claimSettings}: it keeps the planner on the claim index
 * and, at least once, lets the lease commit without waiting for a WAL flush; exactly once,
 * {@link #restoreSettings} follows the claim. At least once, {@link #finishSettings} runs before the
 * finish in its transaction, so that it too commits without waiting for a WAL flush. The library's one refinement is left out: it starts an
 * id-ordered claim at a floor (its {@code id >= ?} condition) instead of the head of the index.
 */
public final class RawSqlStatements {

    /** A claimed task is leased for five minutes, as the library's default. */
    public static final long LEASE_MICROS = 300_000_000L;
    /** The library's statement before an exactly-once finish on a partitioned table. */
    static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";
    private static final List<String> PLANNER_SETTINGS = List.of("enable_seqscan", "enable_bitmapscan", "enable_sort");
    /** Lets the rest of the transaction commit without waiting for a WAL flush: the lease, and at least once the finish. */
    private static final String NO_FLUSH = "set_config('synchronous_commit', 'off', true)";

    /** params: queue name, text[] payloads */
    public final String enqueue;
    /** At least once. params: lease in microseconds, queue name, [queue name: {@link #byIdNamesQueue}] */
    public final String claim;
    /** Exactly once, in the transaction that also finishes. params: queue name */
    public final String claimLocked;
    /** At most once. params: queue name, [queue name] */
    public final String claimAndDelete;
    /** params: bigint[] ids, [queue name, bigint[] ids, bigint[] ids: {@link #byIdNamesQueue}] */
    public final String finish;
    /** Exactly once on a partitioned table, before the finish: generic plans for the rest of the transaction. */
    public final boolean genericPlansBeforeFinish;
    /** Whether the primary key is (queue_name, id), so that statements by id end with the queue name, as the library's do. */
    final boolean byIdNamesQueue;
    /** Whether the layout has a claim index for the planner to keep to. */
    private final boolean claimIndexed;

    public RawSqlStatements(QueueTable table, int claimLimit) {
        String t = table.name(); // validated by QueueTable
        ClaimOrder claimOrder = table.layout().claimOrder();
        boolean bySequence = claimOrder != ClaimOrder.NEXT_PROCESS_AT;
        String order = switch (claimOrder) {
            case NEXT_PROCESS_AT -> "next_process_at";
            case ID -> "id";
            case PRIORITY -> "priority DESC, id";
        };
        claimIndexed = table.layout().claimIndex() != Layout.ClaimIndex.NONE;
        byIdNamesQueue = table.layout().claimIndex().keyedByQueue();
        String ofQueue = byIdNamesQueue ? " AND queue_name = ?" : "";
        // Ordered by next_process_at, a batch keeps its order by being spread over consecutive microseconds.
        enqueue = bySequence
                ? "INSERT INTO " + t + " (queue_name, payload) SELECT ?, p FROM unnest(?::text[]) AS p RETURNING id"
                : "INSERT INTO " + t + " (queue_name, payload, next_process_at)"
                + " SELECT ?, p, now() + (n - 1) * interval '1 microsecond'"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        String dueRows = " FROM " + t + " WHERE queue_name = ? AND next_process_at <= now()"
                + " ORDER BY " + order + " LIMIT " + claimLimit + " FOR UPDATE SKIP LOCKED";
        String columns = "id, queue_name, payload, created_at, attempt, reenqueue_attempt, total_attempt";
        String lease = " SET next_process_at = now() + %s, attempt = attempt + 1, total_attempt = total_attempt + 1";
        String span = "? * interval '1 microsecond'";
        if (byIdNamesQueue) {
            // As the library's: the picked rows' update or delete, and the finish, are bounded by the batch's ids; the
            // lease comes first, so that the parameters keep their order.
            String picked = "picked AS MATERIALIZED (SELECT id" + dueRows + ")";
            String ofPicked = " WHERE id = ANY(ARRAY(SELECT id FROM picked))"
                    + " AND id BETWEEN (SELECT min(id) FROM picked) AND (SELECT max(id) FROM picked)" + ofQueue;
            claim = "WITH lease AS (SELECT " + span + " AS span), " + picked + " UPDATE " + t
                    + lease.formatted("(SELECT span FROM lease)") + ofPicked + " RETURNING " + columns;
            claimAndDelete = "WITH " + picked + " DELETE FROM " + t + ofPicked + " RETURNING " + columns;
            finish = "DELETE FROM " + t + " WHERE id = ANY(?::bigint[])" + ofQueue
                    + " AND id BETWEEN (SELECT min(i) FROM unnest(?::bigint[]) i) AND (SELECT max(i) FROM unnest(?::bigint[]) i)";
        } else {
            String due = "ARRAY(SELECT id" + dueRows + ")";
            claim = "UPDATE " + t + lease.formatted(span) + " WHERE id = ANY(" + due + ") RETURNING " + columns;
            claimAndDelete = "DELETE FROM " + t + " WHERE id = ANY(" + due + ") RETURNING " + columns;
            finish = "DELETE FROM " + t + " WHERE id = ANY(?::bigint[])";
        }
        claimLocked = "SELECT id, queue_name, payload, created_at, attempt + 1, reenqueue_attempt,"
                + " total_attempt + 1" + dueRows;
        genericPlansBeforeFinish = table.layout().partitions() > 0;
    }

    String claim(DeliveryMode mode) {
        return switch (mode) {
            case AT_LEAST_ONCE -> claim;
            case EXACTLY_ONCE -> claimLocked;
            case AT_MOST_ONCE -> claimAndDelete;
        };
    }

    /** The statement to run just before the claim in its transaction (no params), or null when none is needed. */
    public String claimSettings(DeliveryMode mode) {
        List<String> calls = new ArrayList<>();
        if (claimIndexed) {
            for (String setting : PLANNER_SETTINGS) {
                if (mode == DeliveryMode.EXACTLY_ONCE) {
                    calls.add("set_config('dbq.saved_" + setting + "', current_setting('" + setting + "'), true)");
                }
                calls.add("set_config('" + setting + "', 'off', true)");
            }
        }
        if (mode == DeliveryMode.AT_LEAST_ONCE) {
            calls.add(NO_FLUSH);
        }
        return calls.isEmpty() ? null : "SELECT " + String.join(", ", calls);
    }

    /**
     * The statement to run just before the finish in its transaction (no params), or null: at least
     * once the finish, as the lease, commits without waiting for a WAL flush.
     */
    public String finishSettings(DeliveryMode mode) {
        return mode == DeliveryMode.AT_LEAST_ONCE ? "SELECT " + NO_FLUSH : null;
    }

    /** The finish after its settings as one composite statement, as the library sends it (params: as the finish's). */
    String finishComposite(DeliveryMode mode) {
        String settings = finishSettings(mode);
        return (settings == null ? "" : settings + "; ") + finish;
    }

    /** Exactly once, right after the claim: the planner settings as they were (no params), or null. */
    public String restoreSettings(DeliveryMode mode) {
        if (mode != DeliveryMode.EXACTLY_ONCE || !claimIndexed) {
            return null;
        }
        return "SELECT " + String.join(", ", PLANNER_SETTINGS.stream()
                .map(s -> "set_config('" + s + "', current_setting('dbq.saved_" + s + "'), true)").toList());
    }

    /** Settings, claim and restore as one composite statement: one round trip, as the library sends it. */
    String claimComposite(DeliveryMode mode) {
        String settings = claimSettings(mode);
        String restore = restoreSettings(mode);
        return (settings == null ? "" : settings + "; ") + claim(mode) + (restore == null ? "" : "; " + restore);
    }

    /** How many results precede the claim's in {@link #claimComposite}. */
    int resultsBeforeClaim(DeliveryMode mode) {
        return claimSettings(mode) == null ? 0 : 1;
    }
}
