package io.dbqueue;

import io.dbqueue.common.QueueException;
import io.dbqueue.log.LogPosition;

import java.util.Collections;
import java.util.List;

/**
 * A send to a sharded topic whose messages went to several shards, where the append to one shard failed after
 * others had committed: {@link #positions()} says which messages are stored (their positions) and which are not
 * (null), so that only those are sent again. The cause is the failed shard's error.
 */
public class PartialSendException extends QueueException {

    private final List<LogPosition> positions;

    PartialSendException(String message, List<LogPosition> positions, RuntimeException cause) {
        super(message, cause);
        this.positions = Collections.unmodifiableList(positions);
    }

    /** Per message of the send, in order: its position if it is stored, null if it is not. */
    public List<LogPosition> positions() {
        return positions;
    }
}
