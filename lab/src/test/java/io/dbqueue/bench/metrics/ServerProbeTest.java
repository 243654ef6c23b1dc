package io.dbqueue.bench.metrics;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server figures of a minute, read from a real server: commits show up as WAL written and WAL flushes. */
class ServerProbeTest {

    @Test
    void aMinuteCountsTheWalFlushesOfItsCommitsAndTheirMeanTimeWhenTheServerTimesThem() throws Exception {
        try (HikariDataSource ds = PostgresServer.shared().dataSource(2); Connection c = ds.getConnection();
             Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS probe_minute");
            st.execute("CREATE TABLE probe_minute (id bigint)");
            ServerProbe probe = new ServerProbe(ds);
            ServerProbe.Counters start = probe.counters(List.of("probe_minute"));
            for (int i = 0; i < 20; i++) {
                st.execute("INSERT INTO probe_minute VALUES (" + i + ")"); // each one a durable commit
            }
            // A backend publishes its I/O statistics at most once a second unless told to
            st.execute("SELECT pg_stat_force_next_flush()");
            ServerMinute minute = probe.counters(List.of("probe_minute")).minuteSince(start, 1);

            assertEquals(1, minute.minute());
            assertTrue(minute.walMegabytes() >= 0);
            if (isOn(st, "fsync")) {
                assertTrue(minute.walSyncs() >= 1, "20 commits flushed WAL: " + minute);
            }
            if (isOn(st, "track_wal_io_timing") && minute.walSyncs() > 0) {
                assertNotNull(minute.walSyncMs(), "the server times WAL flushes: " + minute);
                assertTrue(minute.walSyncMs() >= 0);
            } else {
                assertNull(minute.walSyncMs(), "the server does not time WAL flushes: " + minute);
            }
            st.execute("DROP TABLE probe_minute");
        }
    }

    private static boolean isOn(Statement st, String setting) throws Exception {
        try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1).equals("on");
        }
    }
}
