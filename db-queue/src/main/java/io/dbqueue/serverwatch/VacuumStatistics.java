package io.dbqueue.serverwatch;

import io.dbqueue.internal.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads what a {@link VacuumWatch} judges: the oldest holder of the xmin horizon that VACUUM of this
 * database's tables must respect, and the queue tables' dead tuples. Uses only views and functions
 * open to any role (a role without {@code pg_read_all_stats} sees other roles' sessions without state
 * and times), so it works on managed services.
 *
 * <p>It follows PostgreSQL's own horizon for ordinary tables ({@code ComputeXidHorizons}): sessions of
 * this database, and those of none (a physical walsender carrying a standby's feedback); not lazy
 * VACUUMs (they ignore each other) nor logical walsenders (decoding keeps its horizon in its slot);
 * a slot's {@code xmin}, but not its {@code catalog_xmin}, which holds back only the system catalogs;
 * prepared transactions of this database.
 */
final class VacuumStatistics {

    /** The oldest holder first; ties go to the one held longest. */
    private static final String OLDEST_HOLDER = """
            WITH holders AS (
                SELECT 'SESSION' AS kind, a.pid::text AS name, a.pid, a.usename::text AS usr, a.state,
                       a.application_name, a.xact_start AS since, a.query_start,
                       CASE WHEN a.backend_xid IS NULL OR age(a.backend_xmin) >= age(a.backend_xid)
                            THEN a.backend_xmin ELSE a.backend_xid END AS horizon
                FROM pg_stat_activity a
                WHERE (a.backend_xmin IS NOT NULL OR a.backend_xid IS NOT NULL)
                  AND a.pid <> pg_backend_pid()
                  AND (a.datid IS NULL OR a.datid = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database()))
                  AND (a.datid IS NULL OR a.backend_type IS DISTINCT FROM 'walsender')
                  AND a.pid NOT IN (SELECT v.pid FROM pg_stat_progress_vacuum v)
                UNION ALL
                SELECT 'REPLICATION_SLOT', s.slot_name::text, NULL, NULL,
                       CASE WHEN s.active THEN 'active' ELSE 'inactive' END, NULL, NULL, NULL, s.xmin
                FROM pg_replication_slots s
                WHERE s.xmin IS NOT NULL
                UNION ALL
                SELECT 'PREPARED_TRANSACTION', p.gid, NULL, p.owner::text, 'prepared', NULL, p.prepared, NULL,
                       p.transaction
                FROM pg_prepared_xacts p
                WHERE p.database = current_database()
            )
            SELECT kind, name, pid, usr, state, application_name, since, query_start, age(horizon) AS age_xids,
                   extract(epoch FROM statement_timestamp() - since) AS age_seconds
            FROM holders
            ORDER BY age(horizon) DESC, since NULLS LAST
            LIMIT 1
            """;

    /**
     * Per table name (bound, never spliced), the statistics of the table and of its partitions at every
     * level ({@code pg_partition_tree}, which lists only partitioned tables and partitions), summed; a
     * partitioned table itself has neither rows nor storage. A table that does not exist reads as empty.
     */
    private static final String TABLES = """
            SELECT n.name, coalesce(sum(s.n_dead_tup), 0), coalesce(sum(s.n_live_tup), 0),
                   coalesce(sum(pg_total_relation_size(t.relid)), 0), max(s.last_vacuum), max(s.last_autovacuum)
            FROM unnest(?::text[]) WITH ORDINALITY AS n(name, position)
            LEFT JOIN LATERAL (SELECT p.relid FROM pg_partition_tree(to_regclass(n.name)) p
                               UNION SELECT to_regclass(n.name)) t ON true
            LEFT JOIN pg_stat_user_tables s ON s.relid = t.relid
            GROUP BY n.name, n.position
            ORDER BY n.position
            """;

    /** A table's statistics before the verdict. */
    record TableStatistics(String table, long deadTuples, long liveTuples, long totalBytes, Instant lastVacuum,
                           Instant lastAutovacuum) {
    }

    private VacuumStatistics() {
    }

    static Optional<HorizonHolder> oldestHolder(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(OLDEST_HOLDER)) {
            if (!rs.next()) {
                return Optional.empty();
            }
            double seconds = rs.getDouble("age_seconds");
            Optional<Duration> age = rs.wasNull() ? Optional.empty()
                    : Optional.of(Duration.ofNanos((long) (Math.max(0, seconds) * 1e9)));
            return Optional.of(new HorizonHolder(HorizonHolder.Kind.valueOf(rs.getString("kind")),
                    rs.getString("name"), rs.getInt("pid"), rs.getString("usr"), rs.getString("state"),
                    rs.getString("application_name"), instant(rs.getTimestamp("since")),
                    instant(rs.getTimestamp("query_start")), rs.getLong("age_xids"), age));
        }
    }

    static List<TableStatistics> tables(Connection c, List<String> tableNames) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TABLES)) {
            ps.setArray(1, Jdbc.texts(c, tableNames.toArray(String[]::new)));
            List<TableStatistics> tables = new ArrayList<>(tableNames.size());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tables.add(new TableStatistics(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                            instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6))));
                }
            }
            return tables;
        }
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
