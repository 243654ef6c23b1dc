package io.dbqueue.queue;

import io.dbqueue.common.Identifiers;
import java.util.Objects;

/**
 * A queue table: its name and the layout it was created with (the layout decides the claim order).
 * Several queues can share one table; they are told apart by {@code queue_name}.
 */
public record QueueTable(String name, Layout layout) {

    public QueueTable {
        Identifiers.tableName("name", name);
        Objects.requireNonNull(layout, "layout");
    }

    /** The table named after the layout, e.g. {@code queue_tasks_5}. */
    public static QueueTable of(Layout layout) {
        return new QueueTable(layout.name(), layout);
    }

    /** Dead letters of this table live in a companion table with this name. */
    public String deadLetterTable() {
        return name + "_dead";
    }

    /** Idempotency keys of tasks enqueued with one live in a companion table with this name. */
    public String keysTable() {
        return name + "_keys";
    }

    /** Queues of this table that an operator paused ({@link QueueAdmin#pause}) are listed in a companion table with this name. */
    public String pausesTable() {
        return name + "_pauses";
    }

    /** The token buckets of its queues' rate limits ({@link QueueLimits}) live in a companion table with this name. */
    public String limitsTable() {
        return name + "_limits";
    }

    /** The tasks in flight of its queues with an in-flight limit ({@link QueueLimits}) live in a companion table with this name. */
    public String inFlightTable() {
        return name + "_in_flight";
    }

    /**
     * Finished tasks of this table's queues that keep a history ({@link QueueConfig#history()}) move to a companion
     * table with this name, partitioned by when they finished ({@link HistoryTable}).
     */
    public String historyTable() {
        return name + "_done";
    }

    public QueueLocation queue(String queueName) {
        return new QueueLocation(this, queueName);
    }
}
