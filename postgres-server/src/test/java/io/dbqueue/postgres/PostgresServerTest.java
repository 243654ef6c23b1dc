package io.dbqueue.postgres;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PostgresServerTest {

    @Test
    void embeddedServerIsDurable() throws SQLException {
        PostgresServer server = PostgresServer.shared();
        if (!server.isEmbedded()) {
            return; // durability of an external server is its operator's choice; the lab records it
        }
        assertEquals("on", show(server, "fsync"));
        assertEquals("on", show(server, "synchronous_commit"));
        assertEquals("on", show(server, "full_page_writes"));
    }

    @Test
    void theSharedServerRefusesSettingsItDidNotStartWith() {
        PostgresServer server = PostgresServer.shared();
        assertSame(server, PostgresServer.shared(Map.of()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PostgresServer.shared(Map.of("max_prepared_transactions", "7")));
        assertTrue(e.getMessage().endsWith("ask for the settings on its first use"), e.getMessage());
    }

    @Test
    void createsASeparateDatabase() throws SQLException {
        PostgresServer server = PostgresServer.shared();
        String url = server.createDatabase("dbq_test_results");
        assertEquals(url, server.createDatabase("dbq_test_results"), "creating twice is harmless");
        try (Connection c = java.sql.DriverManager.getConnection(url, server.user(), server.password());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_database()")) {
            rs.next();
            assertEquals("dbq_test_results", rs.getString(1));
        }
    }

    @Test
    void rejectsDatabaseNamesThatAreNotIdentifiers() {
        PostgresServer server = PostgresServer.shared();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> server.createDatabase("x; DROP DATABASE postgres"));
        assertEquals(true, e.getMessage().startsWith("database name must match"));
    }

    @Test
    void swapsTheDatabaseInAJdbcUrl() {
        assertEquals("jdbc:postgresql://h:1/other?x=1",
                PostgresServer.withDatabase("jdbc:postgresql://h:1/postgres?x=1", "other"));
        assertEquals("jdbc:postgresql://h/other", PostgresServer.withDatabase("jdbc:postgresql://h/db", "other"));
    }

    /** SHOW of one setting; the version test uses it too. */
    static String show(PostgresServer server, String setting) throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
