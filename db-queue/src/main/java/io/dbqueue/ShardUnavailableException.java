package io.dbqueue;

import io.dbqueue.common.QueueException;

/**
 * A write to a shard that cannot be reached (its server down, or the network to it): nothing was
 * stored. {@link #shard()} names it; the other shards are not affected.
 */
public class ShardUnavailableException extends QueueException {

    private final String shard;

    public ShardUnavailableException(String shard, String what, Throwable cause) {
        super(what + ": shard " + shard + " is unavailable (" + cause.getMessage() + ")", cause);
        this.shard = shard;
    }

    public String shard() {
        return shard;
    }
}
