package io.dbqueue;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the queue's statements ask of PostgreSQL besides the rows: commit durability and plan caching. */
class QueueStatementsTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    private final DataSource ds = TestDatabase.dataSource();

    @Test
    void aLeaseCommitsWithoutWaitingForAFlushAndLeavesTheSettingToItsTransaction() throws SQLException {
        try (Connection c = ds.getConnection()) {
            assertEquals("off", synchronousCommitAfterClaim(c, DeliveryMode.AT_LEAST_ONCE),
                    "the lease's transaction does not wait for a flush");
            c.commit();
            assertEquals("on", synchronousCommit(c), "the next transaction on the connection is durable again");
        }
    }

    @Test
    void anExactlyOnceClaimKeepsItsTransactionDurable() throws SQLException {
        try (Connection c = ds.getConnection()) {
            assertEquals("on", synchronousCommitAfterClaim(c, DeliveryMode.EXACTLY_ONCE),
                    "the handler's work and the delete commit with this transaction");
            c.rollback();
        }
    }

    /** With a limit bound as a parameter, a claim on 2,000 waiting tasks got a custom plan every time. */
    @Test
    void claimsOnAPartitionedTableReuseOneGenericPlan() throws SQLException {
        QueueLocation queue = queueWithTasks(Layout.QUEUE_TASKS_5, 2000);
        String table = queue.table().name();
        // No autovacuum during the test: its ANALYZE would invalidate the plans and restart the count.
        for (int p = 0; p < Layout.QUEUE_TASKS_5.partitions(); p++) {
            TestDatabase.execute("ALTER TABLE " + table + "_p" + p + " SET (autovacuum_enabled = off)");
        }
        TestDatabase.execute("ANALYZE " + table);
        TaskStore store = new TaskStore(queue);
        // A connection of its own: a pooled one may hold a prepared claim from an earlier table of this name.
        try (Connection c = PostgresServer.shared().connect()) {
            c.setAutoCommit(false);
            for (int i = 0; i < 30; i++) {
                assertEquals(10, store.claim(c, 10, DeliveryMode.EXACTLY_ONCE, LEASE).size());
                c.rollback();
            }
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                         + " WHERE statement LIKE '%FOR UPDATE SKIP LOCKED%'")) {
                assertTrue(rs.next(), "the claim is a server-side prepared statement");
                long generic = rs.getLong(1);
                assertTrue(generic >= 20, "after five custom plans the claim runs its cached generic plan, ran "
                        + generic + " generic and " + rs.getLong(2) + " custom");
            }
            c.rollback();
        }
    }

    /** Without it, every delete of the same run got a custom plan. */
    @Test
    void anExactlyOnceFinishOnAPartitionedTableRunsACachedGenericPlan() throws Exception {
        QueueLocation queue = queueWithTasks(Layout.QUEUE_TASKS_5, 300);
        CountDownLatch handled = new CountDownLatch(300);
        try (HikariDataSource oneConnection = PostgresServer.shared().dataSource(1)) {
            QueueWorkers workers = QueueWorkers.start(oneConnection,
                    QueueConfig.of(queue).withMode(DeliveryMode.EXACTLY_ONCE).withThreads(1),
                    batch -> batch.tasks().forEach(task -> handled.countDown()));
            assertTrue(handled.await(30, TimeUnit.SECONDS), "all tasks handled");
            workers.shutdown(Duration.ofSeconds(10));
            try (Connection c = oneConnection.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                         + " WHERE statement LIKE 'DELETE FROM " + queue.table().name() + " WHERE id = ANY%'")) {
                assertTrue(rs.next(), "the finish is a server-side prepared statement");
                assertEquals(0, rs.getLong(2), "custom plans of the finish");
                assertTrue(rs.getLong(1) >= 20, "generic plans of the finish: " + rs.getLong(1));
            }
        }
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + queue.table().name()));
    }

    @Test
    void aClaimLimitBelowOneIsRefused() {
        QueueSql sql = new QueueSql(QueueTable.of(Layout.QUEUE_TASKS_2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> sql.claim(DeliveryMode.AT_LEAST_ONCE, 0));
        assertEquals("claim limit must be at least 1, was 0", e.getMessage());
    }

    private QueueLocation queueWithTasks(Layout layout, int count) throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(layout).queue("claims");
        new QueueProducer(ds, queue).enqueueAll(IntStream.range(0, count).mapToObj(i -> "task " + i).toList());
        return queue;
    }

    /** Claims ten tasks in a transaction it leaves open on {@code c}; returns synchronous_commit inside it. */
    private String synchronousCommitAfterClaim(Connection c, DeliveryMode mode) throws SQLException {
        TaskStore store = new TaskStore(queueWithTasks(Layout.QUEUE_TASKS_2, 10));
        c.setAutoCommit(false);
        assertEquals(10, store.claim(c, 10, mode, LEASE).size());
        return synchronousCommit(c);
    }

    private static String synchronousCommit(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW synchronous_commit")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
