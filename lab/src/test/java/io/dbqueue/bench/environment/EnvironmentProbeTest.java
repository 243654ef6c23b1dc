package io.dbqueue.bench.environment;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.PostgresVersion;
import io.dbqueue.postgres.ServerProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvironmentProbeTest {

    /**
     * The lab's embedded server with autovacuum off, as this machine's CI PostgreSQL 15 runs: the probe records
     * the setting and where it came from, and it is the only thing that keeps the server from being stock.
     */
    @ParameterizedTest
    @EnumSource(PostgresVersion.class)
    void autovacuumOffIsRecordedAndTheOnlyDifferenceFromStock(PostgresVersion version) throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(version, ServerProfile.STOCK,
                Map.of("autovacuum", "off"))) {
            Environment.Postgres postgres = EnvironmentProbe.capture(server, ProjectDir.get(), List.of()).postgres();

            assertTrue(postgres.version().startsWith(version.major() + "."), postgres.version());
            assertEquals("off", postgres.settings().get("autovacuum"));
            assertTrue(postgres.nonDefaultSettings().contains(
                    new Environment.Setting("autovacuum", "off", "command line", false)), postgres.toString());
            assertTrue(postgres.nonDefaultSettings().stream().noneMatch(s -> s.source().equals("client")),
                    "the connection's own settings are not the server's");
            assertEquals(List.of("Not stock: autovacuum = off (command line)"),
                    StockSettings.openingLines(postgres.nonDefaultSettings()));
            assertTrue(postgres.storage().matches("\\S+ on \\S+"), "the data directory's file system: "
                    + postgres.storage());
        }
    }

    @Test
    void aDirectoryThatIsNotThereHasAnUnknownStorage() {
        assertEquals("unknown", EnvironmentProbe.storage(Path.of("/no/such/directory")));
    }
}
