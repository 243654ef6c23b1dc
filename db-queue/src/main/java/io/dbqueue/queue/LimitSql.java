package io.dbqueue.queue;

/**
 * The statements of {@link ClaimLimiter} on one queue table's limit tables: the token buckets
 * ({@link QueueTable#limitsTable()}) and the tasks in flight ({@link QueueTable#inFlightTable()}), with their
 * keys under a per-key limit. Only the
 * validated table names are spliced in; values are bound. Times are the server's {@code clock_timestamp()},
 * not {@code now()}: a claim that waited for the bucket's lock must not count the wait as time to refill in.
 */
final class LimitSql {

    /** The queue's bucket, full; params: queue, tokens. */
    final String createBucket;
    /** Locks the queue's bucket until the transaction ends: tokens, seconds since it was last taken from, now. */
    final String lockBucket;
    /** params: tokens, taken at, queue */
    final String takeTokens;
    /** Forgets the tasks whose lease expired, and counts the rest; params: queue, queue. */
    final String countInFlight;
    /** params: queue, lease in microseconds, bigint[] task ids, int[] total attempts */
    final String occupy;
    /** {@link #occupy} with each task's key under a per-key limit; params: as occupy's, then text[] keys */
    final String occupyKeyed;
    /** params: lease in microseconds, queue, bigint[] task ids, int[] total attempts */
    final String extend;
    /** params: queue, bigint[] task ids, int[] total attempts */
    final String release;

    LimitSql(QueueTable table) {
        String limits = table.limitsTable();
        String inFlight = table.inFlightTable();
        // A slot is a task's claim, told apart from a later claim of the same task by its total attempt: the slot
        // of a consumer whose lease expired is not the one of the consumer that claimed the task after it.
        String claims = " (task_id, total_attempt) IN (SELECT * FROM unnest(?::bigint[], ?::int[]))";
        createBucket = "INSERT INTO " + limits + " (queue_name, tokens, taken_at) VALUES (?, ?, clock_timestamp())"
                + " ON CONFLICT DO NOTHING";
        lockBucket = "SELECT tokens, extract(epoch FROM clock_timestamp() - taken_at), clock_timestamp() FROM "
                + limits + " WHERE queue_name = ? FOR UPDATE";
        takeTokens = "UPDATE " + limits + " SET tokens = ?, taken_at = ? WHERE queue_name = ?";
        countInFlight = "WITH expired AS (DELETE FROM " + inFlight + " WHERE queue_name = ?"
                + " AND expires_at <= clock_timestamp())"
                + " SELECT count(*) FROM " + inFlight + " WHERE queue_name = ? AND expires_at > clock_timestamp()";
        occupy = "INSERT INTO " + inFlight + " (queue_name, task_id, total_attempt, expires_at)"
                + " SELECT ?, u.id, u.attempt, clock_timestamp() + ? * interval '1 microsecond'"
                + " FROM unnest(?::bigint[], ?::int[]) AS u(id, attempt) ON CONFLICT DO NOTHING";
        occupyKeyed = "INSERT INTO " + inFlight + " (queue_name, task_id, total_attempt, expires_at, concurrency_key)"
                + " SELECT ?, u.id, u.attempt, clock_timestamp() + ? * interval '1 microsecond', u.k"
                + " FROM unnest(?::bigint[], ?::int[], ?::text[]) AS u(id, attempt, k) ON CONFLICT DO NOTHING";
        extend = "UPDATE " + inFlight + " SET expires_at = clock_timestamp() + ? * interval '1 microsecond'"
                + " WHERE queue_name = ? AND" + claims;
        release = "DELETE FROM " + inFlight + " WHERE queue_name = ? AND" + claims;
    }
}
