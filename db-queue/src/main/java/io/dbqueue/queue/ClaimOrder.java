package io.dbqueue.queue;

/** The order in which a layout hands out ready tasks. */
public enum ClaimOrder {
    /**
     * The experiment's order: earliest {@code next_process_at} first, as its index
     * (queue_name, next_process_at, id DESC) yields it. A tie-break on id would force a sort of every
     * row sharing a timestamp (a whole backlog inserted at once); instead the enqueue spreads a batch
     * over consecutive microseconds so that its order survives.
     */
    NEXT_PROCESS_AT("next_process_at"),
    /** Enqueue order by the bigint sequence, among tasks that are due. */
    ID("id"),
    /**
     * Highest {@code priority} first and enqueue order (the bigint sequence) within a priority, among
     * tasks that are due. Strict: a lower priority waits while any higher one is due. As in id order, a
     * task that comes due again below its level's claim floor (a retry, an expired lease, a task aged
     * into the level) waits up to a second longer while claims come back full ({@link ClaimCursor}).
     */
    PRIORITY("priority DESC, id");

    private final String orderBy;

    ClaimOrder(String orderBy) {
        this.orderBy = orderBy;
    }

    String orderBy() {
        return orderBy;
    }

    /** Whether tasks are ordered by the bigint sequence (within a priority): the enqueue need not spread timestamps. */
    boolean bySequence() {
        return this != NEXT_PROCESS_AT;
    }
}
