package io.dbqueue;

import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogPosition;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A producer of one topic of a {@link ShardedDbQueue}: a message goes to the partition its key
 * chooses ({@link Topic#partitionOf}) and so to the shard that partition is placed on. Every message
 * needs a key (the partition of an unkeyed one would be chosen without regard to the shards). A send
 * of messages for several shards is one append per shard, each atomic on its own, not together; a
 * shard that cannot be reached throws {@link ShardUnavailableException} naming it. Thread-safe.
 */
public final class ShardedTopicProducer {

    private final Topic topic;
    private final int[] shardOfPartition; // index into shardNames
    private final List<String> shardNames;
    private final Map<String, TopicProducer> producers;

    ShardedTopicProducer(Topic topic, List<String> shardOfPartition, Map<String, TopicProducer> producers) {
        this.topic = topic;
        this.shardNames = List.copyOf(producers.keySet());
        this.shardOfPartition = shardOfPartition.stream().mapToInt(shardNames::indexOf).toArray();
        this.producers = Map.copyOf(producers);
    }

    public Topic topic() {
        return topic;
    }

    /** The shard partition {@code partition} lives on. */
    public String shardOf(int partition) {
        return shardNames.get(shardOfPartition[topic.checkPartition(partition)]);
    }

    public LogPosition send(String key, String payload) {
        return sendAll(List.of(new LogMessage(key, payload))).get(0);
    }

    /** Appends {@code messages}, each to its key's partition on that partition's shard; their positions in order. */
    public List<LogPosition> sendAll(List<LogMessage> messages) {
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("append to " + topic.name() + ": no messages");
        }
        Map<Integer, List<Integer>> byShard = new LinkedHashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            LogMessage m = messages.get(i);
            if (m == null || m.key() == null) {
                throw new IllegalArgumentException("append to " + topic.name() + ": message " + i
                        + " has no key; a sharded topic's key chooses the partition and so the shard");
            }
            byShard.computeIfAbsent(shardOfPartition[topic.partitionOf(m.key())], s -> new ArrayList<>()).add(i);
        }
        LogPosition[] positions = new LogPosition[messages.size()];
        byShard.forEach((shard, indexes) -> {
            String name = shardNames.get(shard);
            List<LogPosition> appended = ShardWrite.on(name, "append to " + topic.name(),
                    () -> producers.get(name).sendAll(indexes.stream().map(messages::get).toList()));
            for (int i = 0; i < indexes.size(); i++) {
                positions[indexes.get(i)] = appended.get(i);
            }
        });
        return Arrays.asList(positions);
    }
}
