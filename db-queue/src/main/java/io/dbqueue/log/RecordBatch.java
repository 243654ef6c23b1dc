package io.dbqueue.log;

import io.dbqueue.common.DeliveryMode;
import java.sql.Connection;
import java.util.List;

/**
 * Consecutive records of one partition read by a group member, in offset order. The list cannot be changed: copy it
 * to sort or filter it.
 */
public record RecordBatch(String topic, String group, int partition, List<LogRecord> records, DeliveryMode mode,
                          Connection transaction) {

    public RecordBatch {
        records = List.copyOf(records);
    }

    /**
     * The connection whose transaction reads this batch and commits the group's offset past it; SQL
     * the handler runs on it commits or rolls back with the offset. Only in
     * {@link DeliveryMode#EXACTLY_ONCE}; the handler must not commit, roll back or close it.
     */
    public Connection connection() {
        if (transaction == null) {
            throw new IllegalStateException("a batch has a transaction connection only in EXACTLY_ONCE mode, this is "
                    + mode);
        }
        return transaction;
    }

    /** The offset after the last record: what the group commits once the batch is done. */
    public long nextOffset() {
        return records.get(records.size() - 1).offset() + 1;
    }
}
