package io.dbqueue.common;

/** What a consumer promises about each task of a queue, or each record of a log it reads in a group. */
public enum DeliveryMode {
    /**
     * The claim (queue: delete the tasks; log: commit the group's offset past the records) comes
     * before the handler. A handler failure or a crash loses the batch; nothing is processed twice.
     * No retries, no dead letters.
     */
    AT_MOST_ONCE,
    /**
     * The handler runs first, outside any transaction of ours, and success acknowledges (queue:
     * deletes the tasks, which the claim had leased by pushing {@code next_process_at} forward; log:
     * commits the offset). A consumer that dies leaves its batch to be delivered again (queue: when
     * the lease expires; log: to the member the partition passes to), so a message can be processed
     * twice but is never lost. The experiment's "separate transactions" mode.
     */
    AT_LEAST_ONCE,
    /**
     * Claim or read, the handler's own SQL on the batch's connection, and the acknowledgement commit
     * in one transaction: the handler's effects in this database happen exactly once. A handler
     * exception rolls all of it back (queue: the failure is then recorded for a retry; log: the
     * batch is read again). Effects outside the database are at least once. The experiment's "wrap
     * in transaction" mode.
     */
    EXACTLY_ONCE
}
