package io.dbqueue.bench.metrics;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The server figures of a minute, read from a real server: commits show up as WAL written and WAL flushes. */
class ServerProbeTest {

    /** With WAL flushes timed ({@code track_wal_io_timing}) in the probe's and the commits' sessions, or not. */
    @ParameterizedTest(name = "timed: {0}")
    @ValueSource(booleans = {true, false})
    void aMinuteCountsTheWalFlushesOfItsCommitsAndTheirMeanTimeWhenTheServerTimesThem(boolean timed) throws Exception {
        try (HikariDataSource ds = dataSource(PostgresServer.shared(), timed); Connection c = ds.getConnection();
             Statement st = c.createStatement()) {
            assumeTrue(isOn(st, "fsync"), "the server runs with fsync off: it flushes no WAL to count");
            st.execute("DROP TABLE IF EXISTS probe_minute");
            st.execute("CREATE TABLE probe_minute (id bigint)");
            ServerProbe probe = new ServerProbe(ds);
            ServerProbe.Counters start = probe.counters(List.of("probe_minute"));
            st.execute("INSERT INTO probe_minute SELECT generate_series(1, 10000)"); // about 0.6 MB of WAL
            for (int i = 0; i < 20; i++) {
                st.execute("INSERT INTO probe_minute VALUES (" + i + ")"); // each one a durable commit
            }
            // A backend publishes its I/O statistics at most once a second unless told to
            st.execute("SELECT pg_stat_force_next_flush()");
            ServerMinute minute = probe.counters(List.of("probe_minute")).minuteSince(start, 1);

            assertEquals(1, minute.minute());
            assertTrue(minute.walMegabytes() > 0, "WAL written: " + minute);
            assertTrue(minute.walSyncs() >= 1, "20 commits flushed WAL: " + minute);
            if (timed) {
                assertNotNull(minute.walSyncMs(), "the server times WAL flushes: " + minute);
                assertTrue(minute.walSyncMs() >= 0, "a mean time: " + minute);
            } else {
                assertNull(minute.walSyncMs(), "the server does not time WAL flushes: " + minute);
            }
            st.execute("DROP TABLE probe_minute");
        }
    }

    /** Connections to {@code server} whose sessions time WAL flushes or not, whatever the server's own setting. */
    private static HikariDataSource dataSource(PostgresServer server, boolean timed) {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(server.jdbcUrl());
        ds.setUsername(server.user());
        ds.setPassword(server.password());
        ds.setMaximumPoolSize(2);
        ds.addDataSourceProperty("options", "-c track_wal_io_timing=" + (timed ? "on" : "off"));
        return ds;
    }

    private static boolean isOn(Statement st, String setting) throws Exception {
        try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1).equals("on");
        }
    }
}
