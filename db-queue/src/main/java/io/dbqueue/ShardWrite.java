package io.dbqueue;

import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.QueueException;
import io.dbqueue.internal.Jdbc;

import java.sql.SQLException;
import java.util.function.Supplier;

/** A write to one shard, its connection failures told as {@link ShardUnavailableException} naming the shard. */
final class ShardWrite {

    private ShardWrite() {
    }

    static <T> T on(String shard, String what, Supplier<T> write) {
        try {
            return write.get();
        } catch (CommitOutcomeUnknownException e) {
            // May have been stored: not a plain "unavailable", but named too.
            throw new CommitOutcomeUnknownException(what + " on shard " + shard + ": " + e.getMessage(), e.getCause());
        } catch (QueueException e) {
            if (e.getCause() instanceof SQLException cause && Jdbc.connectionLost(cause)) {
                throw new ShardUnavailableException(shard, what, cause);
            }
            throw e;
        }
    }
}
