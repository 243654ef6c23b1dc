package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.Identifiers;
import io.dbqueue.common.InvalidValueException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A queue table layout: its columns, claim index, storage options and partitioning.
 * The presets are the experiment's six layouts and our own; {@link #withPartitions} and
 * {@link #withTableOptions} derive variants without new DDL files. {@link Schema} renders
 * a layout to DDL; {@code sql/} holds that DDL for every preset.
 *
 * @param name            the preset's name, also the default table name
 * @param description     what the layout is for, written into the DDL as a comment
 * @param claimOrder      the order in which ready tasks are claimed
 * @param requestId       whether the table has the experiment's {@code request_id text} column
 * @param claimIndex      the index the claim query walks
 * @param tableOptions    storage parameters of the table (of each partition when partitioned)
 * @param indexOptions    storage parameters of the claim index
 * @param partitions      hash partitions by id; 0 for an ordinary table
 */
public record Layout(String name, String description, ClaimOrder claimOrder, boolean requestId,
                     ClaimIndex claimIndex, Map<String, String> tableOptions, Map<String, String> indexOptions,
                     int partitions) {

    /** The index the claim query uses. */
    public enum ClaimIndex {
        /** No index but the primary key: the claim scans the table. */
        NONE,
        /** btree (queue_name, next_process_at, id DESC), the experiment's index. */
        NEXT_PROCESS_AT,
        /** The same index declared UNIQUE (it contains id, so it is). */
        NEXT_PROCESS_AT_UNIQUE,
        /** btree (queue_name, id): the claim walks the sequence order; next_process_at stays out of the
         *  index so that the lease update can be a heap-only (HOT) update. */
        QUEUE_ID,
        /** btree (queue_name, id) INCLUDE (next_process_at): covering, the due check needs no heap visit
         *  to reject a row, at the price of non-HOT lease updates. */
        QUEUE_ID_COVERING,
        /** The primary key is (queue_name, id) and the only index: the claim walks it, and a task has one
         *  index entry to write and to vacuum instead of two. */
        PRIMARY_KEY,
        /** btree (queue_name, priority DESC, id): the claim walks the highest priority first, each in sequence
         *  order; as {@link #QUEUE_ID}, next_process_at stays out so that the lease update is HOT. */
        PRIORITY_ID,
        /** The unique index (queue_name, priority DESC, id) as the only index, with no primary key (one cannot be
         *  descending): a task has one index entry to write and to vacuum, as with {@link #PRIMARY_KEY}. A statement
         *  by id names the queue and reads this key, skipping over the priorities as PostgreSQL 18 can; before 18 it
         *  would read the queue's whole key, and {@link Schema} refuses the layout there. */
        PRIORITY_KEY;

        /** Whether the claim walks the priorities ({@link ClaimOrder#PRIORITY}). */
        public boolean byPriority() {
            return this == PRIORITY_ID || this == PRIORITY_KEY;
        }

        /** Whether the only index is a key that leads with queue_name: statements by id then name the queue too. */
        public boolean keyedByQueue() {
            return this == PRIMARY_KEY || this == PRIORITY_KEY;
        }
    }

    private static final Map<String, String> AGGRESSIVE_AUTOVACUUM = options(
            "autovacuum_vacuum_cost_delay", "5",
            "autovacuum_vacuum_cost_limit", "500",
            "autovacuum_vacuum_scale_factor", "0.0001");

    public static final Layout QUEUE_TASKS_1 = new Layout("queue_tasks_1",
            "The experiment's baseline: no index but the primary key, default storage.",
            ClaimOrder.NEXT_PROCESS_AT, false, ClaimIndex.NONE, Map.of(), Map.of(), 0);

    public static final Layout QUEUE_TASKS_2 = new Layout("queue_tasks_2",
            "The experiment's layout 2: claim index on (queue_name, next_process_at, id desc), aggressive autovacuum.",
            ClaimOrder.NEXT_PROCESS_AT, false, ClaimIndex.NEXT_PROCESS_AT, AGGRESSIVE_AUTOVACUUM, Map.of(), 0);

    public static final Layout QUEUE_TASKS_3 = new Layout("queue_tasks_3",
            "The experiment's layout 3: as 2 plus request_id, fillfactor 30 on the table and on the unique claim index.",
            ClaimOrder.NEXT_PROCESS_AT, true, ClaimIndex.NEXT_PROCESS_AT_UNIQUE,
            merge(options("fillfactor", "30"), AGGRESSIVE_AUTOVACUUM), options("fillfactor", "30"), 0);

    public static final Layout QUEUE_TASKS_4 = QUEUE_TASKS_3.derive("queue_tasks_4",
            "The experiment's layout 4: as 3, hash-partitioned by id into 6 partitions (no claim can prune a partition).", 6);

    public static final Layout QUEUE_TASKS_5 = QUEUE_TASKS_3.derive("queue_tasks_5",
            "The experiment's layout 5: as 3, hash-partitioned by id into 8 partitions.", 8);

    public static final Layout QUEUE_TASKS_6 = QUEUE_TASKS_3.derive("queue_tasks_6",
            "The experiment's layout 6: as 3, hash-partitioned by id into 10 partitions (never measured there).", 10);

    public static final Layout DBQ_SEQ = new Layout("dbq_seq",
            "Ours: FIFO by the bigint sequence; index (queue_name, id) keeps next_process_at out so the lease"
                    + " update is HOT (fillfactor 50 leaves room on the page for every row's new version); aggressive autovacuum.",
            ClaimOrder.ID, false, ClaimIndex.QUEUE_ID,
            merge(options("fillfactor", "50"), AGGRESSIVE_AUTOVACUUM), Map.of(), 0);

    public static final Layout DBQ_SEQ_COVERING = new Layout("dbq_seq_covering",
            "Ours: FIFO by the bigint sequence with a covering index (queue_name, id) INCLUDE (next_process_at)"
                    + " suited to the claim query; aggressive autovacuum.",
            ClaimOrder.ID, false, ClaimIndex.QUEUE_ID_COVERING, AGGRESSIVE_AUTOVACUUM, Map.of(), 0);

    public static final Layout DBQ_SEQ_EAGER_VACUUM = new Layout("dbq_seq_eager_vacuum",
            "Ours: as dbq_seq with autovacuum unthrottled (cost delay 0): under a queue's steady churn a throttled"
                    + " vacuum falls behind, dead rows pile up and the table outgrows shared_buffers.",
            ClaimOrder.ID, false, ClaimIndex.QUEUE_ID,
            options("fillfactor", "50", "autovacuum_vacuum_cost_delay", "0", "autovacuum_vacuum_scale_factor", "0.0001"),
            Map.of(), 0);

    public static final Layout DBQ_SEQ_PK = new Layout("dbq_seq_pk",
            "Ours: as dbq_seq with the primary key (queue_name, id) as the claim index and no other index: a task"
                    + " has one index entry to write and to vacuum instead of two.",
            ClaimOrder.ID, false, ClaimIndex.PRIMARY_KEY,
            merge(options("fillfactor", "50"), AGGRESSIVE_AUTOVACUUM), Map.of(), 0);

    public static final Layout DBQ_SEQ_PRIORITY = new Layout("dbq_seq_priority",
            "Ours: as dbq_seq with a priority per task (smallint, default 0): the highest priority is claimed first,"
                    + " FIFO by the bigint sequence within a priority, through the index (queue_name, priority DESC, id).",
            ClaimOrder.PRIORITY, false, ClaimIndex.PRIORITY_ID,
            merge(options("fillfactor", "50"), AGGRESSIVE_AUTOVACUUM), Map.of(), 0);

    public static final Layout DBQ_SEQ_PRIORITY_KEY = new Layout("dbq_seq_priority_key",
            "Ours: as dbq_seq_priority with the unique key (queue_name, priority DESC, id) as its only index: a task has"
                    + " one index entry to write and to vacuum instead of two. For PostgreSQL 18 and later, whose skip scan"
                    + " finds a task by id in that key.",
            ClaimOrder.PRIORITY, false, ClaimIndex.PRIORITY_KEY,
            merge(options("fillfactor", "50"), AGGRESSIVE_AUTOVACUUM), Map.of(), 0);

    private static final List<Layout> PRESETS = List.of(QUEUE_TASKS_1, QUEUE_TASKS_2, QUEUE_TASKS_3,
            QUEUE_TASKS_4, QUEUE_TASKS_5, QUEUE_TASKS_6, DBQ_SEQ, DBQ_SEQ_COVERING, DBQ_SEQ_EAGER_VACUUM, DBQ_SEQ_PK,
            DBQ_SEQ_PRIORITY, DBQ_SEQ_PRIORITY_KEY);

    public Layout {
        Identifiers.tableName("name", name);
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(claimOrder, "claimOrder");
        Objects.requireNonNull(claimIndex, "claimIndex");
        if ((claimOrder == ClaimOrder.PRIORITY) != claimIndex.byPriority()) {
            throw new InvalidValueException("claimIndex",
                    "must be PRIORITY_ID or PRIORITY_KEY exactly when claimOrder is PRIORITY", claimIndex);
        }
        tableOptions = Collections.unmodifiableMap(new LinkedHashMap<>(tableOptions));
        indexOptions = Collections.unmodifiableMap(new LinkedHashMap<>(indexOptions));
        checkOptions("tableOptions", tableOptions);
        checkOptions("indexOptions", indexOptions);
        Checks.between("partitions", partitions, 0, 1024);
    }

    /**
     * Consistent with the generated equals, but without hashing the option maps: locations (which
     * hold a layout) key listener lookups on the hot path.
     */
    @Override
    public int hashCode() {
        return 31 * name.hashCode() + partitions;
    }

    /** Whether tasks carry a priority ({@link QueueProducer#enqueue(String, int)}): the {@code priority} column. */
    public boolean priorities() {
        return claimOrder == ClaimOrder.PRIORITY;
    }

    /**
     * The oldest PostgreSQL this layout is for, as {@code server_version_num} ({@link Schema} refuses older ones); 0:
     * any. 18 for {@link ClaimIndex#PRIORITY_KEY}, whose key a statement by id reads by skip scan.
     */
    public int minimumServerVersion() {
        return claimIndex == ClaimIndex.PRIORITY_KEY ? 180_000 : 0;
    }

    /** The names of the presets with {@link #priorities()}, for messages that ask for one. */
    public static String priorityPresetNames() {
        return String.join(", ", PRESETS.stream().filter(Layout::priorities).map(Layout::name).toList());
    }

    /** Every preset: the experiment's six layouts, then ours. */
    public static List<Layout> presets() {
        return PRESETS;
    }

    public static Layout named(String name) {
        return PRESETS.stream().filter(l -> l.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown layout '" + name + "'; known layouts: "
                        + PRESETS.stream().map(Layout::name).toList()));
    }

    /** This layout hash-partitioned by id into {@code count} partitions (0: not partitioned). */
    public Layout withPartitions(int count) {
        return new Layout(name, description, claimOrder, requestId, claimIndex, tableOptions, indexOptions, count);
    }

    /** This layout with other table storage parameters, e.g. {@code fillfactor}. */
    public Layout withTableOptions(Map<String, String> options) {
        return new Layout(name, description, claimOrder, requestId, claimIndex, options, indexOptions, partitions);
    }

    private Layout derive(String newName, String newDescription, int newPartitions) {
        return new Layout(newName, newDescription, claimOrder, requestId, claimIndex, tableOptions, indexOptions,
                newPartitions);
    }

    private static void checkOptions(String field, Map<String, String> options) {
        options.forEach((key, value) -> {
            if (!key.matches("[a-z_][a-z0-9_.]*") || !value.matches("[A-Za-z0-9_.]+")) {
                throw new InvalidValueException(field, "must be storage options whose names are lower-case"
                        + " identifiers and values numbers or words", key + "=" + value);
            }
        });
    }

    private static Map<String, String> options(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private static Map<String, String> merge(Map<String, String> first, Map<String, String> second) {
        Map<String, String> map = new LinkedHashMap<>(first);
        map.putAll(second);
        return map;
    }
}
