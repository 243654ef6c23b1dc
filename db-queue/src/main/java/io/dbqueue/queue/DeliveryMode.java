package io.dbqueue.queue;

/** What a consumer promises about each task. */
public enum DeliveryMode {
    /**
     * The claim deletes the task. A handler failure or a crash loses it; nothing is processed twice.
     * No retries, no dead letters.
     */
    AT_MOST_ONCE,
    /**
     * The claim leases the task (pushes {@code next_process_at} forward by the lease timeout) and
     * commits; the handler runs outside any queue transaction; success deletes the task. A consumer
     * that dies leaves its tasks to reappear when the lease expires, so a task can be processed
     * twice but is never lost. The experiment's "separate transactions" mode.
     */
    AT_LEAST_ONCE,
    /**
     * Claim, the handler's own SQL on {@link TaskBatch#connection()}, and finish commit in one
     * transaction: the handler's effects in this database happen exactly once. A handler exception
     * rolls all of it back and the failure is then recorded for a retry. Effects outside the database
     * are at least once. The claim locks the tasks for the transaction instead of leasing them. The
     * experiment's "wrap in transaction" mode.
     */
    EXACTLY_ONCE
}
