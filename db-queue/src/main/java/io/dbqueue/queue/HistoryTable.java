package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The history of a queue table ({@link QueueTable#historyTable()}): finished tasks of the queues that keep one
 * ({@link QueueConfig#history()}), range-partitioned by {@code finished_at}. Partitions are created ahead of time
 * and dropped whole once every task in them is older than the retention, so nothing is ever deleted row by row
 * and the history leaves no dead tuples behind. A partition spans an hour for a retention of up to two days, a day
 * beyond; a task is therefore kept for its retention and at most one partition more.
 *
 * <p>There is no default partition: a finish whose time no partition covers fails, and the task is delivered
 * again. {@link #createAhead} keeps {@link #AHEAD} partitions beyond the current one, and the door's maintenance
 * runs it every few minutes.
 */
public final class HistoryTable {

    /** Partitions created beyond the one that holds now. */
    public static final int AHEAD = 3;
    /** The longest retention kept in hourly partitions; longer ones are kept in daily partitions. */
    static final Duration HOURLY_UP_TO = Duration.ofDays(2);
    private static final String LOCK_TIMEOUT = "SET LOCAL lock_timeout = '2s'";
    /**
     * Adds the columns a history created before they existed lacks. Run only when one is missing: ALTER TABLE locks
     * the history against every finish into it, even when there is nothing to add.
     */
    private static final String KEPT_COLUMNS_MIGRATION =
            "ALTER TABLE %s ADD COLUMN IF NOT EXISTS priority smallint, ADD COLUMN IF NOT EXISTS headers jsonb";

    private HistoryTable() {
    }

    /** A partition of the history and the range of {@code finished_at} it holds, {@code from} inclusive. */
    public record Partition(String name, Instant from, Instant to) {
    }

    /** How much time one partition spans for {@code retention}: an hour up to {@link #HOURLY_UP_TO}, else a day. */
    public static Duration partitionWidth(Duration retention) {
        Checks.positive("history", retention);
        return retention.compareTo(HOURLY_UP_TO) <= 0 ? Duration.ofHours(1) : Duration.ofDays(1);
    }

    /**
     * The partitioned table and its index by id, without partitions; idempotent. A task's {@code priority} and
     * {@code headers} are kept where its queue table has them, null elsewhere.
     */
    public static String ddl(QueueTable table) {
        String done = table.historyTable();
        return "-- finished tasks of the queues that keep a history, in partitions by finished_at (HistoryTable)\n"
                + "CREATE TABLE IF NOT EXISTS " + done + " (\n"
                + "    id                bigint NOT NULL,\n"
                + "    queue_name        text NOT NULL,\n"
                + "    payload           text,\n"
                + "    created_at        timestamptz,\n"
                + "    finished_at       timestamptz NOT NULL DEFAULT now(),\n"
                + "    attempt           integer NOT NULL,\n"
                + "    reenqueue_attempt integer NOT NULL,\n"
                + "    total_attempt     integer NOT NULL,\n"
                + "    priority          smallint,\n"
                + "    headers           jsonb\n"
                + ") PARTITION BY RANGE (finished_at);\n"
                + "CREATE INDEX IF NOT EXISTS " + done + "_id_idx ON " + done + " (id);\n";
    }

    /** Creates the history of {@code table} unless it exists, and its partitions from now on for {@code retention}. */
    public static List<String> createIfMissing(DataSource dataSource, QueueTable table, Duration retention) {
        Checks.positive("history", retention);
        return Jdbc.autoCommitted(dataSource, "create the history of " + table.name(),
                c -> createAhead(c, table, retention, now(c)));
    }

    /**
     * Creates the table if missing and the partitions that cover {@code now} and {@link #AHEAD} more of the width for
     * {@code retention}, each starting where the newest one ends; returns the names of those it created. Serialised
     * with other callers on the table by an advisory lock; waits at most 2 s for the table's locks.
     */
    public static List<String> createAhead(Connection c, QueueTable table, Duration retention, Instant now)
            throws SQLException {
        Duration width = partitionWidth(retention);
        return Jdbc.inTransaction(c, tx -> {
            lock(tx, table);
            try (Statement st = tx.createStatement()) {
                String done = table.historyTable();
                // Run only when the table or its index is missing: CREATE INDEX IF NOT EXISTS takes its lock on the
                // table before it looks, and that lock waits for every finish into it, and holds up those after.
                if (!Jdbc.tableVisible(tx, done) || !Jdbc.tableVisible(tx, done + "_id_idx")) {
                    st.execute(ddl(table));
                }
                if (!Schema.hasColumn(tx, done, "priority") || !Schema.hasColumn(tx, done, "headers")) {
                    st.execute(KEPT_COLUMNS_MIGRATION.formatted(done));
                }
            }
            Instant current = floor(now, width);
            Instant end = current.plus(width.multipliedBy(AHEAD + 1));
            Instant from = partitions(tx, table).stream().map(Partition::to).max(Instant::compareTo)
                    .filter(newest -> !newest.isBefore(current)).orElse(current);
            List<String> created = new ArrayList<>();
            for (; from.isBefore(end); from = from.plus(width)) {
                String name = partitionName(table, from);
                try (Statement st = tx.createStatement()) {
                    st.execute("CREATE TABLE " + name + " PARTITION OF " + table.historyTable()
                            + " FOR VALUES FROM ('" + from + "') TO ('" + from.plus(width) + "')");
                }
                created.add(name);
            }
            return created;
        });
    }

    /**
     * Drops the partitions whose every task finished before {@code cutoff} (now minus the retention); returns their
     * names. Waits at most 2 s for the table's locks, then throws with SQL state 55P03: finishes into the history
     * queue behind a waiting DROP.
     */
    public static List<String> dropBefore(Connection c, QueueTable table, Instant cutoff) throws SQLException {
        return Jdbc.inTransaction(c, tx -> {
            lock(tx, table);
            List<String> dropped = new ArrayList<>();
            for (Partition p : partitions(tx, table)) {
                if (!p.to().isAfter(cutoff)) {
                    try (Statement st = tx.createStatement()) {
                        st.execute("DROP TABLE " + p.name());
                    }
                    dropped.add(p.name());
                }
            }
            return dropped;
        });
    }

    /** The partitions of {@code table}'s history, oldest first; empty when it has none or no history. */
    public static List<Partition> partitions(Connection c, QueueTable table) throws SQLException {
        // The bounds as the server prints them, read back by the server: no parsing of its date format here.
        String bounds = "regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)')";
        try (PreparedStatement ps = c.prepareStatement("SELECT c.relname, b[1]::timestamptz, b[2]::timestamptz"
                + " FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid,"
                + " LATERAL (SELECT " + bounds + " AS b) AS bounds"
                + " WHERE i.inhparent = to_regclass(?) ORDER BY 2")) {
            ps.setString(1, table.historyTable());
            try (ResultSet rs = ps.executeQuery()) {
                List<Partition> partitions = new ArrayList<>();
                while (rs.next()) {
                    partitions.add(new Partition(rs.getString(1), rs.getTimestamp(2).toInstant(),
                            rs.getTimestamp(3).toInstant()));
                }
                return partitions;
            }
        }
    }

    /** The server's clock, which stamps {@code finished_at}. */
    public static Instant now(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT now()")) {
            rs.next();
            return rs.getTimestamp(1).toInstant();
        }
    }

    /** Named by the hour it starts at, counted from the epoch: unique, and short enough for any table name. */
    private static String partitionName(QueueTable table, Instant from) {
        return table.historyTable() + "_" + from.getEpochSecond() / 3600;
    }

    private static Instant floor(Instant now, Duration width) {
        long seconds = width.toSeconds();
        return Instant.ofEpochSecond(Math.floorDiv(now.getEpochSecond(), seconds) * seconds);
    }

    private static void lock(Connection tx, QueueTable table) throws SQLException {
        try (PreparedStatement lock = tx.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
            lock.setString(1, table.historyTable());
            lock.execute();
        }
        try (Statement st = tx.createStatement()) {
            st.execute(LOCK_TIMEOUT);
        }
    }
}
