package io.dbqueue.spring;

import io.dbqueue.Placement;
import io.dbqueue.ShardSet;
import io.dbqueue.queue.QueueConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The core's {@link Placement} from {@code dbq.queues.<id>.shard}, each stated shard checked against the shard set. */
final class ShardPlacement {

    private ShardPlacement() {
    }

    /**
     * The placement of the configured queues on {@code shards}: a queue's stated shard, else the hash of its queue
     * name. {@code where} says where the shards come from, for the errors.
     */
    static Placement of(DbQueueProperties properties, Map<String, QueueConfig> configs, ShardSet shards, String where) {
        Placement placement = Placement.hashed();
        Map<String, String> statedBy = new HashMap<>(); // queue name -> the id that stated its shard
        for (Map.Entry<String, DbQueueProperties.Queue> queue : properties.queues().entrySet()) {
            String id = queue.getKey();
            String shard = queue.getValue().shard();
            if (shard == null) {
                continue;
            }
            if (!shards.contains(shard)) {
                throw new InvalidQueuePropertyException("dbq.queues." + id + ".shard names '" + shard
                        + "', which is not a shard of " + where + " (shards: " + shards.names() + ")");
            }
            // The core places by queue name, whatever the table: two ids of one name share a shard.
            String name = configs.get(id).location().queueName();
            String other = statedBy.putIfAbsent(name, id);
            if (other != null && !properties.queues().get(other).shard().equals(shard)) {
                throw new InvalidQueuePropertyException("dbq.queues." + id + ".shard: queue name '" + name
                        + "' is placed on shard " + properties.queues().get(other).shard() + " by dbq.queues." + other
                        + ".shard; a queue name lives on one shard, whatever its table");
            }
            placement = placement.queue(name, shard);
        }
        return placement;
    }

    /** Checks that each {@code dbq.groups} group's queues live on one shard ({@code shardOf} by queue id). */
    static void checkGroups(DbQueueProperties properties, Function<String, String> shardOf) {
        properties.groups().forEach((group, members) -> {
            List<String> ids = members.queues();
            for (String id : ids) {
                if (!shardOf.apply(id).equals(shardOf.apply(ids.get(0)))) {
                    throw new InvalidQueuePropertyException("dbq.groups." + group + ".queues: '" + ids.get(0)
                            + "' lives on shard " + shardOf.apply(ids.get(0)) + " and '" + id + "' on shard "
                            + shardOf.apply(id) + "; a group's queues are consumed together, so set their"
                            + " dbq.queues.<id>.shard alike");
                }
            }
        });
    }

    /** Without shards, a {@code dbq.queues.<id>.shard} has nothing to name: fails naming it. */
    static void checkUnsharded(DbQueueProperties properties) {
        properties.queues().forEach((id, queue) -> {
            if (queue.shard() != null) {
                throw new InvalidQueuePropertyException("dbq.queues." + id + ".shard is set, but no shards are"
                        + " configured: add dbq.shards.<name>.url for each shard, or drop the property");
            }
        });
    }
}
