package io.dbqueue;

import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogPosition;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A producer of one topic of a {@link ShardedDbQueue}: a message goes to the partition its key
 * chooses ({@link Topic#partitionOf}) and so to the shard that partition is placed on. Every message
 * needs a key (the partition of an unkeyed one would be chosen without regard to the shards). Every
 * message is checked before anything is written. A send of messages for several shards is one append
 * per shard, each atomic on its own, not together: when one fails after others committed,
 * {@link PartialSendException} says which messages are stored; when the first fails, nothing is, and a
 * shard that cannot be reached throws {@link ShardUnavailableException} naming it. A send that would
 * join the calling thread's transaction must touch only that transaction's shard: else it fails
 * before anything is written. Thread-safe.
 */
public final class ShardedTopicProducer {

    private final Topic topic;
    private final int[] shardOfPartition; // index into shardNames
    private final List<String> shardNames; // the shards holding partitions, in the order of their first partition
    private final Function<String, TopicProducer> producers; // a shard's door's producer of the topic
    private final JoinedShards joined;

    /** @param producers by shard name, that shard's producer of the topic, made when first asked for */
    ShardedTopicProducer(Topic topic, List<String> shardOfPartition, Function<String, TopicProducer> producers,
                         JoinedShards joined) {
        this.topic = topic;
        this.shardNames = shardOfPartition.stream().distinct().toList();
        this.shardOfPartition = shardOfPartition.stream().mapToInt(shardNames::indexOf).toArray();
        this.producers = producers;
        this.joined = joined;
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
            LogMessage.checkAppendable(topic.name(), i, m);
            if (m.key() == null) {
                throw new IllegalArgumentException("append to " + topic.name() + ": message " + i
                        + " has no key; a sharded topic's key chooses the partition and so the shard");
            }
            byShard.computeIfAbsent(shardOfPartition[topic.partitionOf(m.key())], s -> new ArrayList<>()).add(i);
        }
        String what = "append to " + topic.name();
        joined.check(what, "the messages' partitions are", byShard.keySet().stream().map(shardNames::get).toList());
        LogPosition[] positions = new LogPosition[messages.size()];
        List<String> stored = new ArrayList<>();
        for (Map.Entry<Integer, List<Integer>> share : byShard.entrySet()) {
            String name = shardNames.get(share.getKey());
            List<Integer> indexes = share.getValue();
            List<LogPosition> appended;
            try {
                appended = ShardWrite.on(name, what, () -> producers.apply(name).sendAll(indexes.stream()
                        .map(messages::get).toList()));
            } catch (RuntimeException e) {
                if (stored.isEmpty()) {
                    throw e;
                }
                boolean unknown = e instanceof CommitOutcomeUnknownException;
                throw new PartialSendException(what + ": the messages for shard " + String.join(", ", stored)
                        + " are stored, " + (unknown ? "those for shard " + name + " may be (its connection was lost"
                        + " while committing), and those after it are not: " : "those for shard " + name
                        + " and after it are not: ") + e.getMessage(), Arrays.asList(positions), unknown ? name : null, e);
            }
            for (int i = 0; i < indexes.size(); i++) {
                positions[indexes.get(i)] = appended.get(i);
            }
            stored.add(name);
        }
        return Arrays.asList(positions);
    }
}
