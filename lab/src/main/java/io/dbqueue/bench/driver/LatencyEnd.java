package io.dbqueue.bench.driver;

import io.dbqueue.bench.workload.DriverName;

/**
 * Where each driver's end-to-end latency ends: the point at which its read side calls
 * {@code Meter.processed}. It starts for all of them just before the enqueue (or send) of the message.
 */
public final class LatencyEnd {

    private LatencyEnd() {
    }

    /** What the driver's latency measures, e.g. "enqueue to finish committed"; null for a driver that measures none. */
    public static String of(DriverName driver) {
        return switch (driver) {
            // the queue's finish (delete, or move to the history) has committed: DirectDriver's and ShardedDriver's
            // QueueListener.finished, RawSqlDriver after its finish statement, the stack's test-app after the library's
            case DIRECT, DIRECT_HISTORY, RAW_SQL, STACK, SHARDED_1, SHARDED_2, SHARDED_3, SHARDED_4 ->
                    "enqueue to finish committed";
            // the pgbench drivers count messages from the table and time none
            case PGBENCH, PGBENCH_MINIMAL, PGBENCH_STUDY -> null;
            // LogDriver meters in the group's record handler, which runs before the read's offset commit
            // (inside its transaction exactly once, after it at most once)
            case LOG -> "write to read handler, before the offset commit";
            // RelayDriver meters in the relay's listener: Kafka acknowledged the batch, the group commits next
            case LOG_RELAY -> "write to Kafka acknowledgement, before the offset commit";
            // KafkaGroups meters after consumer.commitSync() returned
            case KAFKA, KAFKA_FSYNC -> "send to read, offset committed";
            // RabbitMqAcknowledger and NatsDriver meter after sending the acknowledgement, without waiting for it
            case RABBITMQ, RABBITMQ_QUORUM, NATS -> "send to read handler, acknowledgement sent";
        };
    }
}
