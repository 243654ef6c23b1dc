package io.dbqueue.kafka;

import io.dbqueue.DbQueue;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.LogSchema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Relays a log topic to a Kafka topic: a member of a consumer group of the log topic that
 * republishes every record it reads to the same partition number of the Kafka topic, with the same
 * key and payload, the append's time as the record's timestamp and its log offset in the
 * {@link #OFFSET_HEADER} header. The producer is Kafka's idempotent one with acks=all and one request in flight,
 * and the group's offset is committed only after Kafka acknowledged every record of the batch: a relay
 * killed at any point and started again loses nothing and reorders nothing within a partition; what
 * it sends twice is at most the batch it had not committed (after a crash of PostgreSQL itself, the
 * batches whose unflushed offset commits it lost), which a consumer can drop by the offset header. A record Kafka
 * refuses holds its partition: the producer is closed at its failure, before the records after it go out, and the
 * batch is relayed again with a new one. Start more relays with the same group (each its own member id) to share the
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
    private final RelayProducer producer;
    private final String kafkaTopic;

    private KafkaRelay(GroupConsumer member, RelayProducer producer, String kafkaTopic) {
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
     * Checks that {@code kafkaTopic} exists with at least as many partitions as {@code group}'s log topic, then starts
     * a member of {@code group} (at least once: it commits after Kafka's acknowledgement) on {@code door}. Closing the
     * door stops the member; close the relay too (before the door), which also closes its Kafka producer and that
     * producer's I/O thread.
     *
     * @param producerConfig the Kafka producer's settings: at least {@code bootstrap.servers};
     *                       {@code enable.idempotence=true}, {@code acks=all},
     *                       {@code max.in.flight.requests.per.connection=1} and string
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
        int needed = LogSchema.describe(door.dataSource(), group.topic()).partitions();
        checkPartitions(KafkaTopicPartitions.of(settings, kafkaTopic), kafkaTopic, group.topic(), needed);
        return start(door, group, kafkaTopic, () -> new KafkaProducer<>(settings), listener);
    }

    /**
     * Starts a relay that sends with producers of {@code producers}, each of {@link ProducerSettings}; the first is
     * made now, so that settings Kafka refuses fail the start.
     */
    static KafkaRelay start(DbQueue door, GroupConfig group, String kafkaTopic,
                            Supplier<Producer<String, String>> producers, RelayListener listener) {
        RelayProducer producer = new RelayProducer(producers);
        producer.current();
        try {
            GroupConsumer member = door.consumeTopic(group, new BatchRelay(producer, kafkaTopic, listener));
            return new KafkaRelay(member, producer, kafkaTopic);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** Every log partition goes to the Kafka partition of its number: the Kafka topic needs at least as many. */
    private static void checkPartitions(int has, String kafkaTopic, String logTopic, int needed) {
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
     * (a batch cut short is relayed again by the group), leaves the group and closes the producer. From a thread whose
     * interrupt flag is set too, as the door's close: the flag is cleared for the waits and set again.
     */
    @Override
    public void close() {
        boolean interrupted = Thread.interrupted();
        try {
            member.shutdown(CLOSE_TIMEOUT);
            producer.close(CLOSE_TIMEOUT);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
