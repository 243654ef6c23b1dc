package io.dbqueue.log;

/**
 * Receives each batch a group member reads. Returning commits the group's offset past the batch
 * (at least once, exactly once); throwing leaves it where it was, so the batch is read again after
 * the member's back-off (at most once had committed before the call: the batch is skipped).
 */
@FunctionalInterface
public interface RecordHandler {

    void handle(RecordBatch batch) throws Exception;
}
