package io.dbqueue.bench.driver.pgbench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pgbench's connection from the bench's JDBC URL, user and password. */
class PgbenchTargetTest {

    @Test
    void theEmbeddedServersUrl() {
        PgbenchTarget t = PgbenchTarget.of("jdbc:postgresql://localhost:41234/postgres?user=postgres", "postgres", "");
        assertEquals(new PgbenchTarget("localhost", 41234, "postgres", "postgres", ""), t);
        assertEquals("41234", t.environment().get("PGPORT"));
        assertFalse(t.environment().containsKey("PGPASSWORD"), "no password, no PGPASSWORD");
    }

    @Test
    void userAndPasswordFromTheUrlUnlessGiven() {
        PgbenchTarget fromUrl = PgbenchTarget.of("jdbc:postgresql://db.example:6543/queue%5Fdb?user=app&password=s%3Dcret"
                + "&sslmode=require", null, null);
        assertEquals(new PgbenchTarget("db.example", 6543, "queue_db", "app", "s=cret"), fromUrl);
        assertEquals("s=cret", fromUrl.environment().get("PGPASSWORD"));
        assertFalse(fromUrl.toString().contains("cret"), "the password stays out of messages");
        PgbenchTarget given = PgbenchTarget.of("jdbc:postgresql://h/db?user=app&password=x", "bench", "y");
        assertEquals("bench", given.user());
        assertEquals("y", given.password());
    }

    @Test
    void defaultsAndIpv6() {
        assertEquals(new PgbenchTarget("localhost", 5432, "db", "postgres", ""),
                PgbenchTarget.of("jdbc:postgresql:db", null, null));
        assertEquals(new PgbenchTarget("::1", 5433, "q", "u", ""), PgbenchTarget.of("jdbc:postgresql://[::1]:5433/q", "u", ""));
        assertEquals(5432, PgbenchTarget.of("jdbc:postgresql://[::1]/q", "u", "").port());
        assertEquals("u", PgbenchTarget.of("jdbc:postgresql://h:1/", "u", "").database(), "libpq's default database");
    }

    @Test
    void whatPgbenchCannotUseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PgbenchTarget.of("jdbc:mysql://h/db", "u", ""));
        assertThrows(IllegalArgumentException.class, () -> PgbenchTarget.of("jdbc:postgresql://a,b/db", "u", ""));
    }

    @Test
    void pgbenchIsAnExecutableOnThePathAndOtherwiseSaysHowToInstallIt(@TempDir Path dir) throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path pgbench = Files.createFile(bin.resolve("pgbench"));
        String path = empty + File.pathSeparator + bin;
        String missing = PgbenchProcess.unavailableReason(empty.toString());
        assertTrue(missing.contains("apt-get install postgresql-client"), missing);
        assertEquals(missing, PgbenchProcess.unavailableReason(path), "a pgbench that cannot be executed is none");
        assertTrue(pgbench.toFile().setExecutable(true));
        assertNull(PgbenchProcess.unavailableReason(path));
    }

    @Test
    void pgbenchsErrorsAndTheServersAreToldFromItsOtherOutput() {
        assertTrue(PgbenchProcess.isError("pgbench: error: client 0 script 0 aborted in command 0 query 1: ERROR: x"));
        assertTrue(PgbenchProcess.isError("pgbench: error: connection to server at \"localhost\" failed"));
        assertFalse(PgbenchProcess.isError("pgbench (15.20, server 18.1)"));
    }
}
