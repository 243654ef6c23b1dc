package io.dbqueue.bench.run;

import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On a real server: while the hold is open, vacuum keeps the rows deleted after it began; once closed, not. */
class XminHoldTest {

    @Test
    void vacuumRemovesNothingDeletedWhileTheHoldIsOpen() throws SQLException {
        PostgresServer server = PostgresServer.shared();
        try (Connection c = server.connect(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS xmin_hold_test");
            st.execute("CREATE TABLE xmin_hold_test (id int) WITH (autovacuum_enabled = false)");
            st.execute("INSERT INTO xmin_hold_test SELECT g FROM generate_series(1, 10000) g");
            try (XminHold ignored = XminHold.open(server)) {
                st.execute("DELETE FROM xmin_hold_test");
                st.execute("VACUUM xmin_hold_test");
                assertTrue(pages(st) > 0, "the deleted rows are kept for the hold's snapshot");
            }
            st.execute("VACUUM xmin_hold_test");
            assertEquals(0, pages(st), "once the hold is closed, vacuum removes them and truncates the table");
            st.execute("DROP TABLE xmin_hold_test");
        }
    }

    private static long pages(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT pg_relation_size('xmin_hold_test') / 8192")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
