package io.dbqueue.bench.driver;

import io.dbqueue.ClaimOrder;
import io.dbqueue.QueueTable;

/**
 * The three statements of a queue, written out once for the raw-SQL ceiling: they are the
 * statements the library runs (batch insert of an unnested array; claim with FOR UPDATE SKIP
 * LOCKED and a lease update in one statement; delete by an array of ids), without the library.
 */
final class RawSqlStatements {

    /** A claimed task is leased for five minutes, as the library's default. */
    static final long LEASE_MICROS = 300_000_000L;

    /** params: queue name, text[] payloads */
    final String enqueue;
    /** params: queue name, limit, lease in microseconds */
    final String claim;
    /** params: bigint[] ids */
    final String finish;

    RawSqlStatements(QueueTable table) {
        String t = table.name(); // validated by QueueTable
        boolean bySequence = table.layout().claimOrder() == ClaimOrder.ID;
        String order = bySequence ? "id" : "next_process_at";
        // Ordered by next_process_at, a batch keeps its order by being spread over consecutive microseconds.
        enqueue = bySequence
                ? "INSERT INTO " + t + " (queue_name, payload) SELECT ?, p FROM unnest(?::text[]) AS p RETURNING id"
                : "INSERT INTO " + t + " (queue_name, payload, next_process_at)"
                + " SELECT ?, p, now() + (n - 1) * interval '1 microsecond'"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS u(p, n) RETURNING id";
        claim = "WITH due AS ("
                + "SELECT id FROM " + t + " WHERE queue_name = ? AND next_process_at <= now()"
                + " ORDER BY " + order + " LIMIT ? FOR UPDATE SKIP LOCKED)"
                + " UPDATE " + t + " t SET next_process_at = now() + ? * interval '1 microsecond',"
                + " attempt = t.attempt + 1, total_attempt = t.total_attempt + 1"
                + " FROM due WHERE t.id = due.id"
                + " RETURNING t.id, t.queue_name, t.payload, t.created_at, t.attempt, t.reenqueue_attempt,"
                + " t.total_attempt";
        finish = "DELETE FROM " + t + " WHERE id = ANY(?::bigint[])";
    }
}
