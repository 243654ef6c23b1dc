package io.dbqueue;

import io.dbqueue.common.QueueException;
import io.dbqueue.log.LogPosition;

import java.util.Collections;
import java.util.List;

/**
 * A send to a sharded topic whose messages went to several shards, where the append to one shard failed after
 * others had committed: {@link #positions()} says which messages are stored (their positions) and which are not
 * (null), so that only those are sent again. The cause is the failed shard's error. Where that shard's connection
 * was lost while it committed ({@link #outcomeUnknownShard()}), its messages may be stored though their positions
 * are null: sending them again may store them twice.
 */
public class PartialSendException extends QueueException {

    private final List<LogPosition> positions;
    private final String outcomeUnknownShard;

    PartialSendException(String message, List<LogPosition> positions, String outcomeUnknownShard,
                         RuntimeException cause) {
        super(message, cause);
        this.positions = Collections.unmodifiableList(positions);
        this.outcomeUnknownShard = outcomeUnknownShard;
    }

    /**
     * Per message of the send, in order: its position if it is stored, null if it is not, or, for the messages of
     * the {@link #outcomeUnknownShard()}, if it is not known to be.
     */
    public List<LogPosition> positions() {
        return positions;
    }

    /** The shard whose append may have been stored (its connection was lost while committing); null if none. */
    public String outcomeUnknownShard() {
        return outcomeUnknownShard;
    }
}
