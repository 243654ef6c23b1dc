package io.dbqueue.kafka;

import io.dbqueue.DbQueue;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.LogSchema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Relays a log topic to a Kafka topic: a member of a consumer group of the log topic that
 * republishes every record it reads to the same partition number of the Kafka topic, with the same
 * key and payload, the append's time as the record's timestamp and its log offset in the
 * {@link #OFFSET_HEADER} header. The producer is Kafka's idempotent one with acks=all, and the
 * group's offset is committed only after Kafka acknowledged every record of the batch: a relay
 * killed at any point and started again loses nothing and reorders nothing within a partition; what
 * it sends twice is at most the batch it had not committed (after a crash of PostgreSQL itself, the
 * batches whose unflushed offset commits it lost), which a consumer can drop by the offset header. The
 * start refuses a producer max.request.size above the Kafka topic's max.message.bytes (where its principal may
 * describe the topic's configuration): a record the broker refuses after it was sent can let the records after it
 * in its batch be written ahead of it. Start more relays with the same group (each its own member id) to share the
 * partitions.
 *
 * <pre>{@code
 * KafkaRelay relay = KafkaRelay.start(dbq, GroupConfig.of("orders", "kafka-relay"), "orders",
 *         Map.of("bootstrap.servers", "kafka:9092"));
 * }</pre>
 */
public final class KafkaRelay implements AutoCloseable {

    /** The header that carries a record's offset in the log topic, in decimal ASCII. */
    public static final String OFFSET_HEADER = "dbq-offset";

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final GroupConsumer member;
    private final Producer<String, String> producer;
    private final String kafkaTopic;

    private KafkaRelay(GroupConsumer member, Producer<String, String> producer, String kafkaTopic) {
        this.member = member;
        this.producer = producer;
        this.kafkaTopic = kafkaTopic;
    }

    /** As {@link #start(DbQueue, GroupConfig, String, Map, RelayListener)} without a listener. */
    public static KafkaRelay start(DbQueue door, GroupConfig group, String kafkaTopic,
                                   Map<String, Object> producerConfig) {
        return start(door, group, kafkaTopic, producerConfig, RelayListener.NONE);
    }

    /**
     * Checks that {@code kafkaTopic} has at least as many partitions as {@code group}'s log topic, and
     * a max.message.bytes at least the producer's max.request.size, then starts a member of {@code group} (at least once: it commits after Kafka's
     * acknowledgement) on {@code door}, closed with it.
     *
     * @param producerConfig the Kafka producer's settings: at least {@code bootstrap.servers};
     *                       {@code enable.idempotence=true}, {@code acks=all} and string
     *                       serializers are set, and other values for them are refused
     */
    public static KafkaRelay start(DbQueue door, GroupConfig group, String kafkaTopic,
                                   Map<String, Object> producerConfig, RelayListener listener) {
        Objects.requireNonNull(door, "door");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(listener, "listener");
        if (group.mode() != DeliveryMode.AT_LEAST_ONCE) {
            throw new InvalidValueException("group.mode", "must be AT_LEAST_ONCE (the relay commits after Kafka's "
                    + "acknowledgement, outside the database's transaction)", group.mode());
        }
        if (kafkaTopic == null || kafkaTopic.isBlank()) {
            throw new InvalidValueException("kafkaTopic", "must name a Kafka topic", kafkaTopic);
        }
        Map<String, Object> settings = ProducerSettings.of(producerConfig);
        TopicMessageSize.of(settings, kafkaTopic)
                .ifPresent(maxMessageBytes -> ProducerSettings.checkRequestSize(settings, kafkaTopic, maxMessageBytes));
        return start(door, group, kafkaTopic, new KafkaProducer<>(settings), listener);
    }

    /** Starts a relay that sends with {@code producer}, one of {@link ProducerSettings}; closes it if the start fails. */
    static KafkaRelay start(DbQueue door, GroupConfig group, String kafkaTopic, Producer<String, String> producer,
                            RelayListener listener) {
        try {
            int partitions = LogSchema.describe(door.dataSource(), group.topic()).partitions();
            checkPartitions(producer, kafkaTopic, group.topic(), partitions);
            GroupConsumer member = door.consumeTopic(group, new BatchRelay(producer, kafkaTopic, listener));
            return new KafkaRelay(member, producer, kafkaTopic);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** Every log partition goes to the Kafka partition of its number: the Kafka topic needs at least as many. */
    private static void checkPartitions(Producer<String, String> producer, String kafkaTopic, String logTopic,
                                        int needed) {
        int has;
        try {
            has = producer.partitionsFor(kafkaTopic).size();
        } catch (KafkaException e) {
            throw new RelayException("the partitions of Kafka topic " + kafkaTopic + " could not be read (does it "
                    + "exist?): " + e.getMessage(), e);
        }
        if (has < needed) {
            throw new IllegalStateException("Kafka topic " + kafkaTopic + " has " + has + " partitions, fewer than the "
                    + needed + " of log topic " + logTopic + ": the relay keeps each record's partition number, so "
                    + "give the Kafka topic at least " + needed + " partitions");
        }
    }

    /** The group member that reads the log topic. */
    public GroupConsumer member() {
        return member;
    }

    public String kafkaTopic() {
        return kafkaTopic;
    }

    /**
     * Stops reading, waits up to 30 seconds for the batch in hand to be acknowledged and committed
     * (a batch cut short is relayed again by the group), leaves the group and closes the producer.
     */
    @Override
    public void close() {
        member.shutdown(CLOSE_TIMEOUT);
        producer.close(CLOSE_TIMEOUT);
    }
}
