package io.dbqueue;

import io.dbqueue.common.InvalidValueException;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Where a queue and a topic's partitions live in a {@link ShardSet}. A queue lives on one shard: the
 * one {@link #queue stated} for its name, else the one a stable hash of its name picks (rendezvous
 * hashing: the same on every JVM and every start, whatever order the shards are given in; adding a
 * shard moves only the queues that the new shard wins). A topic's partitions are spread over the
 * shards, partition {@code p} on the {@code p mod n}-th shard in the set's order unless
 * {@link #partition stated}. Immutable; the methods that state a place return a new placement.
 */
public final class Placement {

    private static final Placement HASHED = new Placement(Map.of(), Map.of());

    private final Map<String, String> queues;
    private final Map<String, String> partitions; // "topic/partition" -> shard

    private Placement(Map<String, String> queues, Map<String, String> partitions) {
        this.queues = Map.copyOf(queues);
        this.partitions = Map.copyOf(partitions);
    }

    /** Every queue by the hash of its name, every topic round-robin over the shards. */
    public static Placement hashed() {
        return HASHED;
    }

    /** This placement, with queue {@code queueName} (of any table) on shard {@code shard}. */
    public Placement queue(String queueName, String shard) {
        Map<String, String> next = new HashMap<>(queues);
        next.put(Objects.requireNonNull(queueName, "queueName"), Objects.requireNonNull(shard, "shard"));
        return new Placement(next, partitions);
    }

    /** This placement, with partition {@code partition} of {@code topic} on shard {@code shard}. */
    public Placement partition(String topic, int partition, String shard) {
        Map<String, String> next = new HashMap<>(partitions);
        next.put(Objects.requireNonNull(topic, "topic") + "/" + partition, Objects.requireNonNull(shard, "shard"));
        return new Placement(queues, next);
    }

    /** The shard of queue {@code queueName} among {@code shards}. */
    public String shardOfQueue(String queueName, ShardSet shards) {
        String stated = queues.get(queueName);
        if (stated != null) {
            return known(stated, shards, "queue " + queueName);
        }
        List<String> names = shards.names();
        String best = null;
        long bestWeight = -1;
        for (String shard : names) {
            long weight = weight(shard, queueName);
            if (weight > bestWeight || (weight == bestWeight && shard.compareTo(best) < 0)) {
                best = shard;
                bestWeight = weight;
            }
        }
        return best;
    }

    /** The shard of partition {@code partition} of {@code topic} among {@code shards}. */
    public String shardOfPartition(String topic, int partition, ShardSet shards) {
        String stated = partitions.get(topic + "/" + partition);
        if (stated != null) {
            return known(stated, shards, "topic " + topic + " partition " + partition);
        }
        return shards.names().get(partition % shards.size());
    }

    /** Checks that every stated shard is one of {@code shards}. */
    void check(ShardSet shards) {
        queues.forEach((queue, shard) -> known(shard, shards, "queue " + queue));
        partitions.forEach((partition, shard) -> known(shard, shards, "partition " + partition));
    }

    private static String known(String shard, ShardSet shards, String of) {
        if (!shards.contains(shard)) {
            throw new InvalidValueException("placement of " + of, "must name one of " + shards.names(), shard);
        }
        return shard;
    }

    private static long weight(String shard, String queueName) {
        CRC32C crc = new CRC32C();
        crc.update((shard + '\0' + queueName).getBytes(StandardCharsets.UTF_8));
        return mix(crc.getValue());
    }

    /** A finaliser (from SplitMix64): CRC alone spreads similar names poorly. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return (z ^ (z >>> 31)) >>> 1;
    }
}
