package io.dbqueue.log;

/**
 * Every statement of the log on one topic, in one place. Table names come from the validated topic
 * name; all values are bound parameters.
 *
 * <p>Tables of topic {@code t}: {@code t_partitions} (one row per partition: the next offset to
 * append, the lowest offset retention has kept), {@code t_p<n>} (partition n's records, range
 * partitioned by offset into segments {@code t_p<n>_s<k>}), {@code t_groups} (a group's committed
 * offset per partition, and which member holds the partition until when), {@code t_members} (the
 * members of each group and until when they are alive).
 */
final class LogSql {

    static final String CATALOG = """
            CREATE TABLE IF NOT EXISTS dbq_topics (
                topic_name   text PRIMARY KEY,
                partitions   integer NOT NULL,
                segment_size bigint NOT NULL,
                created_at   timestamptz NOT NULL DEFAULT now()
            )""";
    static final String CATALOG_EXISTS = "SELECT to_regclass('dbq_topics') IS NOT NULL";
    static final String TABLE_EXISTS = "SELECT to_regclass(?) IS NOT NULL";
    static final String DESCRIBE = "SELECT partitions, segment_size FROM dbq_topics WHERE topic_name = ?";
    /** For statements that take a table lock others would queue behind: give up after 2 s instead. */
    static final String LOCK_TIMEOUT = "SET LOCAL lock_timeout = '2s'";
    static final String FORGET_TOPIC = "DELETE FROM dbq_topics WHERE topic_name = ?";
    /** In the appending transaction: delivered when it commits, each partition's holders woken. */
    static final String NOTIFY_PARTITIONS = "SELECT pg_notify(?, p::text) FROM unnest(?::int[]) p";
    /** Creators of one partition's segments take turns: (topic key, partition). */
    static final String SEGMENT_LOCK = "SELECT pg_advisory_xact_lock(hashtext('dbq_log:' || ?), ?)";

    private final Topic topic;
    // per partition, built once: they run on every append and every read
    private final String[] append;
    private final String[] read;
    private final String[] readLocking;
    final String position;
    final String commit;
    final String commitLazily;
    final String joinGroup;
    final String heartbeat;
    final String liveMembers;
    final String forgetDeadMembers;
    final String release;
    final String acquire;
    final String leave;
    final String releaseAll;
    final String lag;
    final String resetGroup;
    final String lockGroup;
    final String partitionBounds;
    final String partitionBoundsLocked;
    final String minCommitted;
    final String raiseLowOffset;

    LogSql(Topic topic) {
        this.topic = topic;
        String t = topic.name();
        String appendTemplate = """
                WITH reserved AS (
                    UPDATE %1$s_partitions SET next_offset = next_offset + ? WHERE partition = ?
                    RETURNING next_offset - ? AS first_offset
                ), appended AS (
                    INSERT INTO %1$s_p%%d (log_offset, msg_key, payload)
                    SELECT r.first_offset + m.ord - 1, m.msg_key, m.payload
                    FROM reserved r, unnest(?::text[], ?::text[]) WITH ORDINALITY AS m(msg_key, payload, ord)
                )
                SELECT first_offset FROM reserved""".formatted(t);
        // Offsets are gapless and become visible in order (appends to a partition serialise on its
        // counter row until they commit), so the next batch is exactly the range after the commit. The text also
        // names the two segments the range can lie in, from the position the member expects (read): planned with
        // those values (a generic plan too, cached while the member reads the same segment), PostgreSQL opens and
        // locks only them. Bounded by the join alone, or by bound values (whose generic plan covers every segment),
        // every read opened and locked every segment its partition keeps, three locks each; with the range's own
        // values in the text, each read was planned anew (a fifth less throughput in a lab run).
        // params: batch, group, partition, member
        String readTemplate = """
                SELECT g.committed_offset, p.low_offset, p.next_offset,
                       r.log_offset, r.msg_key, r.payload, r.appended_at
                FROM %1$s_groups g
                JOIN %1$s_partitions p ON p.partition = g.partition
                LEFT JOIN %1$s_p%%d r ON r.log_offset >= g.committed_offset AND r.log_offset < g.committed_offset + ?
                    AND r.log_offset >= %%%%d AND r.log_offset < %%%%d
                WHERE g.group_name = ? AND g.partition = ? AND g.owner = ? AND g.lease_until > now()
                ORDER BY r.log_offset""".formatted(t);
        append = perPartition(appendTemplate);
        read = perPartition(readTemplate);
        readLocking = perPartition(readTemplate + " FOR UPDATE OF g");
        // where a member that does not know its partition's position yet reads from; params: group, partition
        position = "SELECT committed_offset FROM %s_groups WHERE group_name = ? AND partition = ?".formatted(t);
        commit = """
                UPDATE %s_groups SET committed_offset = ?
                WHERE group_name = ? AND partition = ? AND owner = ? AND committed_offset = ?""".formatted(t);
        // At least once, an offset commit lost with the server only means the batch is read again, as at
        // least once allows; so its commit does not wait for a WAL flush (the setting holds for this
        // composite statement's implicit transaction only).
        commitLazily = "SELECT set_config('synchronous_commit', 'off', true); " + commit;
        // FOR SHARE: a retention drop raising low_offset commits first, or waits for this join to commit.
        joinGroup = """
                INSERT INTO %1$s_groups (group_name, partition, committed_offset)
                SELECT ?, partition, CASE WHEN ? THEN next_offset ELSE low_offset END FROM %1$s_partitions FOR SHARE
                ON CONFLICT DO NOTHING""".formatted(t);
        heartbeat = """
                INSERT INTO %s_members (group_name, member_id, alive_until) VALUES (?, ?, now() + ? * interval '1 millisecond')
                ON CONFLICT (group_name, member_id) DO UPDATE SET alive_until = excluded.alive_until""".formatted(t);
        liveMembers = "SELECT member_id FROM %s_members WHERE group_name = ? AND alive_until > now() ORDER BY member_id"
                .formatted(t);
        forgetDeadMembers = "DELETE FROM %s_members WHERE group_name = ? AND alive_until < now() - interval '1 hour'"
                .formatted(t);
        release = """
                UPDATE %s_groups SET owner = NULL, lease_until = NULL
                WHERE group_name = ? AND owner = ? AND partition <> ALL (?)""".formatted(t);
        // SKIP LOCKED: exactly once, a member whose handler outlived its lease still holds its partition's row
        // locked; waiting for it would stop this member's heartbeat, and so its reads of every partition.
        acquire = """
                UPDATE %1$s_groups SET owner = ?, lease_until = now() + ? * interval '1 millisecond'
                WHERE group_name = ? AND partition IN (SELECT partition FROM %1$s_groups WHERE group_name = ?
                    AND partition = ANY (?) AND (owner IS NULL OR owner = ? OR lease_until <= now())
                    FOR UPDATE SKIP LOCKED)
                RETURNING partition""".formatted(t);
        leave = "DELETE FROM %s_members WHERE group_name = ? AND member_id = ?".formatted(t);
        releaseAll = "UPDATE %s_groups SET owner = NULL, lease_until = NULL WHERE group_name = ? AND owner = ?"
                .formatted(t);
        lag = """
                SELECT g.group_name, g.partition, g.committed_offset, p.next_offset, p.low_offset, g.owner
                FROM %1$s_groups g JOIN %1$s_partitions p ON p.partition = g.partition
                ORDER BY g.group_name, g.partition""".formatted(t);
        resetGroup = "UPDATE %s_groups SET committed_offset = ? WHERE group_name = ? AND partition = ?".formatted(t);
        lockGroup = "SELECT 1 FROM %s_groups WHERE group_name = ? AND partition = ? FOR UPDATE".formatted(t);
        partitionBounds = "SELECT low_offset, next_offset FROM %s_partitions WHERE partition = ?".formatted(t);
        partitionBoundsLocked = partitionBounds + " FOR SHARE";
        minCommitted = "SELECT min(committed_offset) FROM %s_groups WHERE partition = ?".formatted(t);
        raiseLowOffset = "UPDATE %s_partitions SET low_offset = greatest(low_offset, ?) WHERE partition = ?".formatted(t);
    }

    String partitionTable(int partition) {
        return topic.name() + "_p" + partition;
    }

    String segmentTable(int partition, long segment) {
        return partitionTable(partition) + "_s" + segment;
    }

    private String[] perPartition(String template) {
        String[] statements = new String[topic.partitions()];
        for (int p = 0; p < statements.length; p++) {
            statements[p] = template.formatted(p);
        }
        return statements;
    }

    String append(int partition) {
        return append[partition];
    }

    /**
     * The read of {@code partition} from offset {@code from} on, naming in its text the segment that holds {@code from}
     * and the one after (a batch longer than a segment is cut there, and the next read goes on).
     */
    String read(int partition, boolean locking, long from) {
        long first = topic.segmentOf(from) * topic.segmentSize();
        return (locking ? readLocking : read)[partition].formatted(first, first + 2 * topic.segmentSize());
    }

    /** The DDL of the topic's tables, its first {@code segments} segments per partition, and its catalog row. */
    String ddl(int segments) {
        StringBuilder ddl = new StringBuilder("-- log topic ").append(topic.name()).append(": ")
                .append(topic.partitions()).append(" partitions, segments of ").append(topic.segmentSize())
                .append(" offsets (LogSchema creates more as appends need them)\n");
        ddl.append(CATALOG).append(";\n");
        ddl.append("INSERT INTO dbq_topics (topic_name, partitions, segment_size) VALUES ('%s', %d, %d);\n"
                .formatted(topic.name(), topic.partitions(), topic.segmentSize()));
        for (String table : createTables()) {
            ddl.append(table).append(";\n");
        }
        for (int p = 0; p < topic.partitions(); p++) {
            for (int s = 0; s < segments; s++) {
                ddl.append(createSegment(p, s)).append(";\n");
            }
        }
        return ddl.toString();
    }

    private String[] createTables() {
        String t = topic.name();
        String[] ddl = new String[3 + topic.partitions()];
        ddl[0] = """
                CREATE TABLE %1$s_partitions (
                    partition   integer PRIMARY KEY,
                    next_offset bigint NOT NULL DEFAULT 0,
                    low_offset  bigint NOT NULL DEFAULT 0
                );
                INSERT INTO %1$s_partitions (partition) SELECT generate_series(0, %2$d)""".formatted(t, topic.partitions() - 1);
        ddl[1] = """
                CREATE TABLE %s_groups (
                    group_name       text NOT NULL,
                    partition        integer NOT NULL,
                    committed_offset bigint NOT NULL,
                    owner            text,
                    lease_until      timestamptz,
                    PRIMARY KEY (group_name, partition)
                )""".formatted(t);
        ddl[2] = """
                CREATE TABLE %s_members (
                    group_name  text NOT NULL,
                    member_id   text NOT NULL,
                    alive_until timestamptz NOT NULL,
                    PRIMARY KEY (group_name, member_id)
                )""".formatted(t);
        for (int p = 0; p < topic.partitions(); p++) {
            ddl[3 + p] = """
                    CREATE TABLE %1$s (
                        log_offset  bigint NOT NULL,
                        msg_key     text,
                        payload     text NOT NULL,
                        appended_at timestamptz NOT NULL DEFAULT now(),
                        PRIMARY KEY (log_offset)
                    ) PARTITION BY RANGE (log_offset);
                    CREATE INDEX %1$s_appended_at_idx ON %1$s USING brin (appended_at)""".formatted(partitionTable(p));
        }
        return ddl;
    }

    String createSegment(int partition, long segment) {
        long from = segment * topic.segmentSize();
        return "CREATE TABLE IF NOT EXISTS %s PARTITION OF %s FOR VALUES FROM (%d) TO (%d)"
                .formatted(segmentTable(partition, segment), partitionTable(partition), from, from + topic.segmentSize());
    }

    /**
     * A segment added to a topic in use: created apart, then attached. Attaching locks the partition's
     * table SHARE UPDATE EXCLUSIVE, which lets appends and reads go on, where creating it as a
     * partition would lock it ACCESS EXCLUSIVE and wait for every open append (one in a caller's
     * transaction, too) with readers and writers queued behind it.
     */
    String[] addSegment(int partition, long segment) {
        long from = segment * topic.segmentSize();
        String table = segmentTable(partition, segment);
        return new String[]{
                "CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS)".formatted(table, partitionTable(partition)),
                "ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%d) TO (%d)"
                        .formatted(partitionTable(partition), table, from, from + topic.segmentSize())};
    }

    String dropSegment(int partition, long segment) {
        return "DROP TABLE IF EXISTS " + segmentTable(partition, segment);
    }

    /** Segments of a partition, oldest first, with their size: (segment number, bytes). */
    String segments(int partition) {
        return """
                SELECT substring(c.relname FROM '_s([0-9]+)$')::bigint AS segment, pg_total_relation_size(c.oid)
                FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = '%s'::regclass
                ORDER BY 1""".formatted(partitionTable(partition));
    }

    /**
     * When the record at {@code offset} of {@code partition} was appended, the offset written into the text: planned
     * for that value, PostgreSQL opens only its segment (a bound value could get a generic plan over all of them).
     */
    String appendedAtOffset(int partition, long offset) {
        return "SELECT appended_at FROM %s WHERE log_offset = %d".formatted(partitionTable(partition), offset);
    }

    /**
     * The first offset of {@code partition} from {@code from} on appended at or after a time (the parameter), {@code
     * from} written into the text as in {@link #appendedAtOffset}, so that only the segments from there on are read.
     */
    String offsetAt(int partition, long from) {
        return "SELECT min(log_offset) FROM %s WHERE log_offset >= %d AND appended_at >= ?"
                .formatted(partitionTable(partition), from);
    }

    String[] dropTables() {
        String t = topic.name();
        String[] ddl = new String[3 + topic.partitions()];
        ddl[0] = "DROP TABLE IF EXISTS " + t + "_partitions";
        ddl[1] = "DROP TABLE IF EXISTS " + t + "_groups";
        ddl[2] = "DROP TABLE IF EXISTS " + t + "_members";
        for (int p = 0; p < topic.partitions(); p++) {
            ddl[3 + p] = "DROP TABLE IF EXISTS " + partitionTable(p);
        }
        return ddl;
    }

    /** The LISTEN/NOTIFY channel of a topic; apart from the queue's {@code dbq_<table>} channels. */
    static String channel(String topicName) {
        return "dbql_" + topicName;
    }
}
