package io.dbqueue.postgres;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Map;

import static io.dbqueue.postgres.PostgresServerTest.show;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PostgresVersionTest {

    @Test
    void startsADurableStockPostgres15() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(PostgresVersion.PG15, ServerProfile.STOCK, Map.of())) {
            String version = show(server, "server_version");
            assertTrue(version.startsWith("15."), version);
            assertEquals("on", show(server, "fsync"));
            assertEquals("on", show(server, "synchronous_commit"));
            assertEquals("on", show(server, "full_page_writes"));
            assertEquals("on", show(server, "autovacuum"));
            assertEquals("1min", show(server, "autovacuum_naptime"));
        }
    }

    @Test
    void knowsOnly15And18() {
        assertEquals(PostgresVersion.PG15, PostgresVersion.of(15));
        assertEquals(PostgresVersion.PG18, PostgresVersion.of(18));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PostgresVersion.of(16));
        assertEquals("PostgreSQL version must be one of [15, 18], was 16", e.getMessage());
    }
}
