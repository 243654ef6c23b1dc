package io.dbqueue.bench.answer;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.common.DeliveryMode;

import java.util.Arrays;
import java.util.List;

/**
 * A system the answer measures: a lab driver with the settings that make it the system a user
 * would deploy. Work queues (one consumer per message) are compared with each other, topics read
 * by consumer groups with each other.
 */
public enum AnswerSystem {

    QUEUE_AT_LEAST_ONCE("queue-at-least-once", "PostgreSQL queue, at least once", DriverName.DIRECT,
            DeliveryMode.AT_LEAST_ONCE, 1, Kind.WORK_QUEUE, "the library, adaptive wakeups, best layout"),
    QUEUE_EXACTLY_ONCE("queue-exactly-once", "PostgreSQL queue, exactly once", DriverName.DIRECT,
            DeliveryMode.EXACTLY_ONCE, 1, Kind.WORK_QUEUE, "the finish commits with the claim"),
    RABBITMQ_CLASSIC("rabbitmq-classic", "RabbitMQ classic queue", DriverName.RABBITMQ, null, 1, Kind.WORK_QUEUE,
            "durable, persistent messages, publisher confirms, manual acks"),
    RABBITMQ_QUORUM("rabbitmq-quorum", "RabbitMQ quorum queue", DriverName.RABBITMQ_QUORUM, null, 1, Kind.WORK_QUEUE,
            "publisher confirms, manual acks; fsyncs before confirming"),
    NATS_JETSTREAM("nats-jetstream", "NATS JetStream", DriverName.NATS, null, 1, Kind.WORK_QUEUE,
            "file storage, acks; does not fsync each message (it syncs every 2 minutes by default)"),
    LOG_1_GROUP("log-1-group", "PostgreSQL log, 1 group", DriverName.LOG, null, 1, Kind.TOPIC,
            "the library's log, 4 partitions"),
    LOG_5_GROUPS("log-5-groups", "PostgreSQL log, 5 groups", DriverName.LOG, null, 5, Kind.TOPIC,
            "the library's log, 4 partitions"),
    KAFKA_1_GROUP("kafka-1-group", "Kafka, OS flushing, 1 group", DriverName.KAFKA, null, 1, Kind.TOPIC,
            "acks=all, one broker; the OS writes the log to disk when it likes"),
    KAFKA_5_GROUPS("kafka-5-groups", "Kafka, OS flushing, 5 groups", DriverName.KAFKA, null, 5, Kind.TOPIC,
            "acks=all, one broker; the OS writes the log to disk when it likes"),
    KAFKA_FSYNC_1_GROUP("kafka-fsync-1-group", "Kafka, flush per message, 1 group", DriverName.KAFKA_FSYNC, null, 1,
            Kind.TOPIC, "acks=all, flush.messages=1: fsync before each acknowledgement"),
    KAFKA_FSYNC_5_GROUPS("kafka-fsync-5-groups", "Kafka, flush per message, 5 groups", DriverName.KAFKA_FSYNC, null, 5,
            Kind.TOPIC, "acks=all, flush.messages=1: fsync before each acknowledgement");

    /** Work queues hand each message to one consumer; topics hand each message to every group. */
    public enum Kind { WORK_QUEUE, TOPIC }

    private final String id;
    private final String label;
    private final DriverName driver;
    private final DeliveryMode mode;
    private final int groups;
    private final Kind kind;
    private final String setup;

    AnswerSystem(String id, String label, DriverName driver, DeliveryMode mode, int groups, Kind kind, String setup) {
        this.id = id;
        this.label = label;
        this.driver = driver;
        this.mode = mode;
        this.groups = groups;
        this.kind = kind;
        this.setup = setup;
    }

    @JsonValue
    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The lab driver that runs it. */
    public DriverName driver() {
        return driver;
    }

    /**
     * Whether it acknowledges a message only once it is flushed to disk, as PostgreSQL with synchronous_commit on
     * does: not NATS JetStream (it syncs every two minutes by default) nor Kafka with the OS flushing.
     */
    public boolean flushesBeforeAcknowledging() {
        return this != NATS_JETSTREAM && this != KAFKA_1_GROUP && this != KAFKA_5_GROUPS;
    }

    /** The queue's delivery mode; null for the other systems. */
    public DeliveryMode mode() {
        return mode;
    }

    /** Consumer groups each reading every message; 1 for a work queue. */
    public int groups() {
        return groups;
    }

    public Kind kind() {
        return kind;
    }

    /** How it is set up, in a few words for the report. */
    public String setup() {
        return setup;
    }

    /** Whether PostgreSQL carries it (the queue and the log), as opposed to a broker. */
    public boolean onPostgres() {
        return driver == DriverName.DIRECT || driver == DriverName.LOG;
    }

    @JsonCreator
    public static AnswerSystem byId(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown system '" + id + "'; known systems: "
                        + ids(List.of(values()))));
    }

    public static String ids(List<AnswerSystem> systems) {
        return String.join(", ", systems.stream().map(AnswerSystem::id).toList());
    }
}
