package io.dbqueue.bench.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.List;

/**
 * A driver as workload files, flags and results name it ({@link #toString}), and what its name tells about its cells:
 * which table it uses and whether it can run one side alone.
 */
public enum DriverName {

    DIRECT("direct", Table.LAYOUT, false),
    DIRECT_HISTORY("direct-history", Table.LAYOUT, false),
    RAW_SQL("raw-sql", Table.LAYOUT, false),
    PGBENCH("pgbench", Table.LAYOUT, true),
    PGBENCH_MINIMAL("pgbench-minimal", Table.OWN, true),
    PGBENCH_STUDY("pgbench-study", Table.OWN, true),
    STACK("stack", Table.LAYOUT, false),
    RABBITMQ("rabbitmq", Table.NONE, false),
    NATS("nats", Table.NONE, false),
    LOG("log", Table.NONE, false),
    KAFKA("kafka", Table.NONE, false),
    KAFKA_FSYNC("kafka-fsync", Table.NONE, false),
    RABBITMQ_QUORUM("rabbitmq-quorum", Table.NONE, false),
    LOG_RELAY("log-relay", Table.NONE, false);

    /** The queue table a driver's cell runs on. */
    private enum Table {
        /** The cell's layout's: a cell per layout. */
        LAYOUT,
        /** A table of the driver's own, whatever the layout: a cell per batch size, under the first layout. */
        OWN,
        /** None (a broker, or the log's topic): a cell per batch size, under {@link Cell#NO_LAYOUT}. */
        NONE
    }

    private final String text;
    private final Table table;
    private final boolean oneSided;

    DriverName(String text, Table table, boolean oneSided) {
        this.text = text;
        this.table = table;
        this.oneSided = oneSided;
    }

    /** The driver named {@code text}; an IllegalArgumentException listing the known names otherwise. */
    @JsonCreator
    public static DriverName of(String text) {
        return Arrays.stream(values()).filter(d -> d.text.equals(text)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown driver '" + text + "'; known drivers: " + all()));
    }

    /** Every driver's name, in the order of the workloads' and the help's lists. */
    public static List<DriverName> all() {
        return List.of(values());
    }

    /** Whether its cells use no queue table: the brokers and the pub/sub drivers. */
    public boolean isBroker() {
        return table == Table.NONE;
    }

    /** Whether it is read as a topic by {@link LogLoad#groups()} groups, not as a queue. */
    public boolean isPubSub() {
        return this == LOG || this == KAFKA || this == KAFKA_FSYNC || this == LOG_RELAY;
    }

    /** Whether its cells run once per batch size, whatever the layouts. */
    public boolean oncePerBatchSize() {
        return table != Table.LAYOUT;
    }

    /** Whether it can run one side alone: 0 producers (dequeue alone, from the backlog) or 0 consumers. */
    public boolean oneSided() {
        return oneSided;
    }

    @JsonValue
    @Override
    public String toString() {
        return text;
    }
}
