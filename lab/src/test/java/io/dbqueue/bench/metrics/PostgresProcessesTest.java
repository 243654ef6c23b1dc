package io.dbqueue.bench.metrics;

import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The CPU time of a local server, read from /proc. */
class PostgresProcessesTest {

    /**
     * A backend that burned CPU and exited keeps its time in the server's total: the postmaster's reaped children's
     * time counts. It was dropped with the process, so a window in which a busy backend (an autovacuum worker) exited
     * lost that backend's whole time, from before the window too.
     */
    @Test
    void aBackendThatExitsKeepsItsCpuTimeInTheTotal() throws Exception {
        PostgresServer server = PostgresServer.shared();
        try (Connection probe = connect(server)) {
            PostgresProcesses processes = PostgresProcesses.ofBackend(backendPid(probe));
            assumeTrue(processes != null, "the server does not run on this machine: its /proc is not ours to read");
            double before;
            long busyPid;
            try (Connection busy = connect(server); Statement st = busy.createStatement()) {
                busyPid = backendPid(busy);
                st.executeQuery("SELECT sum(g) FROM generate_series(1, 20000000) g").close(); // a second or so of CPU
                before = processes.cpuSeconds();
            }
            Path gone = Path.of("/proc", Long.toString(busyPid));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Files.exists(gone) && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // the backend exits and its postmaster reaps it, soon after the close
            }
            assertTrue(!Files.exists(gone), "the backend exited");
            double after = processes.cpuSeconds();
            assertTrue(after >= before, "the server's CPU time fell from " + before + " s to " + after + " s");
        }
    }

    private static Connection connect(PostgresServer server) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
    }

    private static long backendPid(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
