package io.dbqueue;

/** The order in which a layout hands out ready tasks. */
public enum ClaimOrder {
    /** The experiment's order: earliest {@code next_process_at} first, ties by id. */
    NEXT_PROCESS_AT("next_process_at, id"),
    /** Enqueue order by the bigint sequence, among tasks that are due. */
    ID("id");

    private final String orderBy;

    ClaimOrder(String orderBy) {
        this.orderBy = orderBy;
    }

    String orderBy() {
        return orderBy;
    }
}
