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

    DIRECT("direct", Table.LAYOUT, true),
    DIRECT_HISTORY("direct-history", Table.LAYOUT, true),
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
    LOG_RELAY("log-relay", Table.NONE, false),
    SHARDED_1("sharded-1", Table.LAYOUT, false),
    SHARDED_2("sharded-2", Table.LAYOUT, false),
    SHARDED_3("sharded-3", Table.LAYOUT, false),
    SHARDED_4("sharded-4", Table.LAYOUT, false);

    /** The most shards a run takes ({@code --shards}): one driver per shard count. */
    public static final int MAX_SHARDS = 4;

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

    /** How many shards its cells spread their queues over, through ShardedDbQueue; 0: no shard set. */
    public int shards() {
        return name().startsWith("SHARDED_") ? Integer.parseInt(name().substring("SHARDED_".length())) : 0;
    }

    /** The driver that runs the queues over {@code count} shards (1 to {@link #MAX_SHARDS}). */
    public static DriverName sharded(int count) {
        if (count < 1 || count > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be between 1 and " + MAX_SHARDS + ", was " + count);
        }
        return valueOf("SHARDED_" + count);
    }

    /**
     * Whether its cells start from one table pre-filled with the workload's backlog: brokers and topics start empty,
     * and a sharded cell's shards would each hold one, which its meter counts once.
     */
    public boolean fillsBacklog() {
        return table != Table.NONE && shards() == 0;
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
