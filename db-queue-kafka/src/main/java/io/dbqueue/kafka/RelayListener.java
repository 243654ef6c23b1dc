package io.dbqueue.kafka;

import io.dbqueue.log.RecordBatch;

/** Hears of a relay's work, for metrics. Calls come from the relay's thread; keep them quick. */
@FunctionalInterface
public interface RelayListener {

    RelayListener NONE = batch -> {
    };

    /**
     * Kafka acknowledged every record of {@code batch}; the group's offset is committed past it
     * right after this returns. Throwing leaves it uncommitted, so the batch is relayed again.
     */
    void relayed(RecordBatch batch) throws Exception;
}
