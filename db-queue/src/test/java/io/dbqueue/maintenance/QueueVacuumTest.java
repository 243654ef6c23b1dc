package io.dbqueue.maintenance;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Task;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workers' own vacuum of their table, which keeps a queue fast on a server with stock autovacuum. */
class QueueVacuumTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<Task> ONE = List.of(new Task(1, "q", "p", Instant.now(), 1, 0, 1));

    @Test
    void aVacuumIsDueAfterTheClaimedTasksAndTheIntervalBothPassed() {
        VacuumPolicy policy = new VacuumPolicy(100, Duration.ofSeconds(1));
        assertFalse(policy.due(99, Duration.ofSeconds(5)));
        assertFalse(policy.due(100, Duration.ofMillis(999)));
        assertTrue(policy.due(100, Duration.ofSeconds(1)));
        assertFalse(VacuumPolicy.OFF.due(Long.MAX_VALUE, Duration.ofDays(1)));
        assertEquals("claimedTasks must be 0 (off) or more, was -1",
                assertThrows(IllegalArgumentException.class, () -> new VacuumPolicy(-1, Duration.ZERO)).getMessage());
    }

    /**
     * The dead rows are made before the workers start and the vacuum their claim starts, so it finds
     * them all; new rows then fit in the pages they took only if the vacuum removed them (without, they
     * would take as many new pages again, as autovacuum is off).
     */
    @Test
    void workersVacuumTheirTableAndItsDeadRowsAreGone() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("vacuumed");
        String table = queue.table().name();
        TestDatabase.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = off)");
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource())
                .vacuum(queue.table(), new VacuumPolicy(1, Duration.ZERO)).build()) {
            QueueProducer producer = dbq.producer(queue);
            producer.enqueueAll(tasks(2_000));
            TestDatabase.execute("DELETE FROM " + table);
            producer.enqueue("claimed");
            long bytes = tableBytes(table);
            long before = vacuumCount(table);
            dbq.consume(QueueConfig.of(queue), batch -> { });
            Await.until(WAIT, "the workers vacuumed " + table, () -> vacuumCount(table) > before);
            producer.enqueueAll(tasks(2_000));
            assertTrue(tableBytes(table) <= bytes, "the table grew from " + bytes + " to " + tableBytes(table)
                    + " bytes: the dead rows' pages were not reused");
        }
    }

    private static List<String> tasks(int count) {
        return IntStream.range(0, count).mapToObj(i -> "task " + i).toList();
    }

    private static long tableBytes(String table) throws SQLException {
        return TestDatabase.queryLong("SELECT pg_relation_size('" + table + "')");
    }

    /** PostgreSQL answers a role that may not vacuum a table with a warning, not an error. */
    @Test
    void aRoleThatMayNotVacuumStopsTryingAfterTheFirstRefusal() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        TestDatabase.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dbq_no_vacuum')"
                + " THEN CREATE ROLE dbq_no_vacuum LOGIN; END IF; END $$");
        TestDatabase.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + table.name() + " TO dbq_no_vacuum");
        HikariConfig config = new HikariConfig();
        // The embedded server's URL names its superuser, and a user in the URL wins over the pool's.
        config.setJdbcUrl(PostgresServer.shared().jdbcUrl().replaceAll("([?&])user=[^&]*", "$1user=dbq_no_vacuum"));
        config.setUsername("dbq_no_vacuum");
        config.setMaximumPoolSize(1);
        try (HikariDataSource notOwner = new HikariDataSource(config);
             QueueVacuum vacuum = new QueueVacuum(notOwner, table, new VacuumPolicy(1, Duration.ZERO))) {
            long before = vacuumCount(table.name());
            vacuum.picked(null, ONE, 0);
            Await.until(WAIT, "the role's right to vacuum was checked", vacuum::refused);
            for (int i = 0; i < 10; i++) {
                vacuum.picked(null, ONE, 0);
            }
            assertEquals(0, vacuum.vacuums(), "no vacuum tried by a role that may not vacuum");
            assertEquals(before, vacuumCount(table.name()), "PostgreSQL did not vacuum the table");
        }
    }

    /**
     * SKIP_LOCKED makes PostgreSQL warn that it skipped a table another vacuum holds; that is not a
     * refusal, and the next vacuum must run (it once stopped the workers' vacuums for good).
     */
    @Test
    void aVacuumSkippedWhileAnotherHoldsTheTableIsTriedAgain() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        try (QueueVacuum vacuum = new QueueVacuum(TestDatabase.dataSource(), table, new VacuumPolicy(1, Duration.ZERO));
             Connection other = PostgresServer.shared().connect(); Statement st = other.createStatement()) {
            other.setAutoCommit(false);
            st.execute("LOCK TABLE " + table.name() + " IN SHARE UPDATE EXCLUSIVE MODE"); // as a running vacuum holds it
            long before = vacuumCount(table.name());
            vacuum.picked(null, ONE, 0);
            Await.until(WAIT, "the first vacuum returned", () -> vacuum.vacuums() == 1);
            assertEquals(before, vacuumCount(table.name()), "the held table was skipped");
            other.rollback();
            Await.until(WAIT, "a later vacuum ran", () -> {
                vacuum.picked(null, ONE, 0);
                return vacuumCount(table.name()) > before;
            });
            assertFalse(vacuum.refused());
        }
    }

    private static long vacuumCount(String table) throws SQLException {
        return TestDatabase.queryLong("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = '" + table + "'");
    }
}
