package io.dbqueue.internal;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A write that PostgreSQL fails to break a deadlock is done again ({@link Jdbc#written}), in auto-commit (one
 * statement) and in its own transaction. The deadlock is made with advisory locks: the write takes lock A then lock
 * B in one statement, while another transaction holds B and, once the write waits for B, asks for A. The other
 * transaction checks for deadlocks only after 20 s, so the write's check runs first and fails its own statement.
 */
class DeadlockRedoTest {

    @ParameterizedTest(name = "own transaction: {0}")
    @ValueSource(booleans = {false, true})
    void aWriteFailedToBreakADeadlockIsDoneAgain(boolean ownTransaction) throws Exception {
        long a = ThreadLocalRandom.current().nextLong(1_000_000, Integer.MAX_VALUE);
        long b = a + 1 == Integer.MAX_VALUE ? a - 1 : a + 1;
        AtomicInteger tries = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (Connection other = TestDatabase.dataSource().getConnection()) {
            other.setAutoCommit(false);
            try (Statement st = other.createStatement()) {
                st.execute("SET LOCAL deadlock_timeout = '20s'"); // so that the write's deadlock check runs first
            }
            lock(other, b);
            Future<Integer> write = threads.submit(() -> Jdbc.written(TestDatabase.dataSource(), "the write",
                    ownTransaction, c -> {
                        tries.incrementAndGet();
                        lock(c, a, b);
                        return tries.get();
                    }));
            Await.until(Duration.ofSeconds(30), "the write to wait for lock B", () -> waiters(b) == 1);
            Future<?> otherDone = threads.submit(() -> {
                lock(other, a); // a deadlock: the write holds A and waits for B, held here
                other.commit();
                return null;
            });

            assertEquals(2, write.get(30, TimeUnit.SECONDS), "tries, the second one done");
            otherDone.get(30, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }

    /** Takes transaction-scoped advisory locks {@code keys} in order, in one statement. */
    private static void lock(Connection c, long... keys) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < keys.length; i++) {
            sql.append(i == 0 ? "" : ", ").append("pg_advisory_xact_lock(?)");
        }
        try (PreparedStatement st = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < keys.length; i++) {
                st.setLong(i + 1, keys[i]);
            }
            st.executeQuery().close();
        }
    }

    /** The sessions waiting for advisory lock {@code key} (below 2^31: its object id is the key). */
    private static long waiters(long key) throws SQLException {
        try (Connection c = TestDatabase.dataSource().getConnection();
             PreparedStatement st = c.prepareStatement("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                     + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                     + " AND classid = 0 AND objid = ?::oid AND objsubid = 1 AND NOT granted")) {
            st.setLong(1, key);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
