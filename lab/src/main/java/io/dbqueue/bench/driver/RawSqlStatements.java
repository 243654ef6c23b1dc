package io.dbqueue.bench.driver;

import io.dbqueue.ClaimOrder;
import io.dbqueue.DeliveryMode;
import io.dbqueue.QueueTable;

/**
 * A queue's statements, written out once for the raw-SQL ceiling: they are the statements the
 * library runs (batch insert of an unnested array; a claim with FOR UPDATE SKIP LOCKED and the
 * batch size as its limit that, by delivery mode, leases the tasks without waiting for a WAL
 * flush, only locks them, or deletes them; delete by an array of ids, on a partitioned table in
 * exactly-once mode after switching the transaction to generic plans), without the
 * library. The library's one refinement is left out: it starts an id-ordered claim at a floor (its
 * {@code id >= ?} condition) instead of the head of the index.
 */
final class RawSqlStatements {

    /** A claimed task is leased for five minutes, as the library's default. */
    static final long LEASE_MICROS = 300_000_000L;
    /** The library's statement before an exactly-once finish on a partitioned table. */
    static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

    /** params: queue name, text[] payloads */
    final String enqueue;
    /** At least once. params: queue name, lease in microseconds */
    final String claim;
    /** Exactly once, in the transaction that also finishes. params: queue name */
    final String claimLocked;
    /** At most once. params: queue name */
    final String claimAndDelete;
    /** params: bigint[] ids */
    final String finish;
    /** Exactly once on a partitioned table, before the finish: generic plans for the rest of the transaction. */
    final boolean genericPlansBeforeFinish;

    RawSqlStatements(QueueTable table, int batchSize) {
        String t = table.name(); // validated by QueueTable
        boolean bySequence = table.layout().claimOrder() == ClaimOrder.ID;
        String order = bySequence ? "id" : "next_process_at";
        // Ordered by next_process_at, a batch keeps its order by being spread over consecutive microseconds.
        enqueue = bySequence
                ? "INSERT INTO " + t + " (queue_name, payload) SELECT ?, p FROM unnest(?::text[]) AS p RETURNING id"
                : "INSERT INTO " + t + " (queue_name, payload, next_process_at)"
                + " SELECT ?, p, now() + (n - 1) * interval '1 microsecond'"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        String dueRows = " FROM " + t + " WHERE queue_name = ? AND next_process_at <= now()"
                + " ORDER BY " + order + " LIMIT " + batchSize + " FOR UPDATE SKIP LOCKED";
        claim = "WITH due AS (SELECT id" + dueRows + "),"
                + " no_flush AS (SELECT set_config('synchronous_commit', 'off', true))"
                + " UPDATE " + t + " t SET next_process_at = now() + ? * interval '1 microsecond',"
                + " attempt = t.attempt + 1, total_attempt = t.total_attempt + 1"
                + " FROM due, no_flush WHERE t.id = due.id"
                + " RETURNING t.id, t.queue_name, t.payload, t.created_at, t.attempt, t.reenqueue_attempt,"
                + " t.total_attempt";
        claimLocked = "SELECT id, queue_name, payload, created_at, attempt + 1, reenqueue_attempt,"
                + " total_attempt + 1" + dueRows;
        claimAndDelete = "DELETE FROM " + t + " WHERE id IN (SELECT id" + dueRows + ")"
                + " RETURNING id, queue_name, payload, created_at, attempt, reenqueue_attempt, total_attempt";
        finish = "DELETE FROM " + t + " WHERE id = ANY(?::bigint[])";
        genericPlansBeforeFinish = table.layout().partitions() > 0;
    }

    String claim(DeliveryMode mode) {
        return switch (mode) {
            case AT_LEAST_ONCE -> claim;
            case EXACTLY_ONCE -> claimLocked;
            case AT_MOST_ONCE -> claimAndDelete;
        };
    }
}
