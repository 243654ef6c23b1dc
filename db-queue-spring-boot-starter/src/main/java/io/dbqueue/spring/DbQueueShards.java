package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.ShardSet;
import io.dbqueue.ShardedDbQueue;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shards of {@code dbq.shards} (or of the application's {@link ShardSet} bean) and where each configured queue
 * lives: a door per shard, from a {@link ShardedDbQueue}. The starter places the queues at start-up; it does not
 * move them ({@code ShardedDbQueue.moveQueue} is not offered here: a queue changes shard by changing
 * {@code dbq.queues.<id>.shard} once its old shard is drained).
 */
public final class DbQueueShards implements QueueDoors, AutoCloseable {

    private final ShardedDbQueue sharded;
    private final Map<String, String> shardById = new LinkedHashMap<>();

    DbQueueShards(ShardedDbQueue sharded, Map<String, QueueConfig> configs) {
        this.sharded = sharded;
        configs.forEach((id, config) -> shardById.put(id, sharded.shardOf(config.location())));
    }

    /** The shards' names, in the set's order. */
    public List<String> names() {
        return sharded.shards().names();
    }

    /** The shard queue {@code id} lives on; an unknown id throws {@link UnknownQueueIdException}. */
    public String shardOf(String id) {
        String shard = shardById.get(id);
        if (shard == null) {
            throw new UnknownQueueIdException("unknown queue id '" + id + "'; configured under dbq.queues: "
                    + shardById.keySet(), id, shardById.keySet());
        }
        return shard;
    }

    /** The door of shard {@code name}: its admin, its producers that take a connection, its listening state. */
    public DbQueue shard(String name) {
        return sharded.shard(name);
    }

    public DataSource dataSource(String name) {
        return sharded.shards().dataSource(name);
    }

    @Override
    public DbQueue door(QueueLocation queue) {
        return sharded.shard(sharded.shardOf(queue));
    }

    /**
     * Closes every shard's door; again, it does nothing more. Spring calls it when the bean is destroyed, also when the
     * context fails to start after building it: closed only on a context's close, the doors' maintenance threads ran
     * on against closed pools.
     */
    @Override
    public void close() {
        sharded.close();
    }
}
