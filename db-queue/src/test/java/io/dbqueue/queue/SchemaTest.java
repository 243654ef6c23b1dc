package io.dbqueue.queue;

import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.QueueException;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaTest {

    /** One of Schema's ways of creating a table. */
    @FunctionalInterface
    private interface Creation {
        void create(DataSource dataSource, QueueTable table) throws SQLException;
    }

    /**
     * dbq_seq_priority_key's key is read by skip scan, which PostgreSQL has from 18: on an older server every way of
     * creating the table refuses it, naming the layout to use instead, and creates nothing; on 18 it is created.
     */
    @Test
    void theKeyReadBySkipScanIsRefusedBeforePostgres18() throws SQLException {
        QueueTable table = new QueueTable("priority_keyed", Layout.DBQ_SEQ_PRIORITY_KEY);
        Schema.drop(TestDatabase.dataSource(), table);
        if (TestDatabase.supports(table.layout())) {
            Schema.createIfMissing(TestDatabase.dataSource(), table);
            assertTrue(Schema.exists(TestDatabase.dataSource(), table));
            Schema.drop(TestDatabase.dataSource(), table);
            return;
        }
        for (Creation creation : new Creation[] {Schema::create, Schema::createIfMissing, Schema::recreate}) {
            InvalidValueException refused = assertThrows(InvalidValueException.class,
                    () -> creation.create(TestDatabase.dataSource(), table));
            assertEquals("layout", refused.field());
            assertTrue(refused.getMessage().contains("needs PostgreSQL 18 or later")
                    && refused.getMessage().contains("use dbq_seq_priority "), refused.getMessage());
            assertFalse(Schema.exists(TestDatabase.dataSource(), table));
        }
    }

    @Test
    void partitionCountAndStorageOptionsAreParameters() throws SQLException {
        Layout sixteen = Layout.QUEUE_TASKS_5.withPartitions(16).withTableOptions(Map.of("fillfactor", "50"));
        QueueTable table = new QueueTable("queue_tasks_16", sixteen);
        Schema.recreate(TestDatabase.dataSource(), table);
        assertEquals(16, TestDatabase.queryLong("SELECT count(*) FROM pg_inherits WHERE inhparent = 'queue_tasks_16'::regclass"));
        assertEquals(16, TestDatabase.queryLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'queue\\_tasks\\_16\\_p%'"
                + " AND reloptions @> ARRAY['fillfactor=50']"));
        Schema.drop(TestDatabase.dataSource(), table);
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'queue\\_tasks\\_16%'"));
    }

    @Test
    void createIfMissingCreatesOnceAndKeepsExistingTasks() throws Exception {
        QueueTable table = new QueueTable("created_once", Layout.DBQ_SEQ);
        Schema.drop(TestDatabase.dataSource(), table);
        assertTrue(!Schema.exists(TestDatabase.dataSource(), table));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.util.List<java.util.concurrent.Future<Object>> starts = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starts.add(pool.submit(() -> {
                Schema.createIfMissing(TestDatabase.dataSource(), table);
                return null;
            }));
        }
        for (java.util.concurrent.Future<Object> start : starts) {
            start.get();
        }
        pool.shutdown();
        assertTrue(Schema.exists(TestDatabase.dataSource(), table));
        new QueueProducer(TestDatabase.dataSource(), table.queue("q")).enqueue("kept");
        Schema.createIfMissing(TestDatabase.dataSource(), table);
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM created_once"));
    }

    /** A schema from before pauses: workers run, stats fail naming the table, and createIfMissing adds it. */
    @Test
    void aTableCreatedBeforePausesGainsItsPausesTable() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        TestDatabase.execute("DROP TABLE " + table.pausesTable());
        QueueLocation queue = table.queue("q");
        QueueAdmin admin = new QueueAdmin(TestDatabase.dataSource(), queue);
        QueueException e = assertThrows(QueueException.class, admin::stats);
        assertTrue(e.getMessage().contains(table.pausesTable()), e.getMessage());
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).build()) {
            CountDownLatch handled = new CountDownLatch(1);
            dbq.consume(QueueConfig.of(queue), batch -> handled.countDown());
            dbq.producer(queue).enqueue("handled although pauses cannot be read");
            assertTrue(handled.await(30, TimeUnit.SECONDS));
        }
        Schema.createIfMissing(TestDatabase.dataSource(), table);
        assertTrue(admin.pause());
        assertTrue(admin.stats().paused());
    }

    /** A schema from before limits: createIfMissing adds the tables that a limited queue's claims need. */
    @Test
    void aTableCreatedBeforeLimitsGainsItsLimitTables() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        TestDatabase.execute("DROP TABLE " + table.limitsTable() + ", " + table.inFlightTable());
        Schema.createIfMissing(TestDatabase.dataSource(), table);
        QueueLocation queue = table.queue("q");
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).build()) {
            CountDownLatch handled = new CountDownLatch(1);
            dbq.consume(QueueConfig.of(queue).withLimits(new QueueLimits(10, 1, 1)), batch -> handled.countDown());
            dbq.producer(queue).enqueue("limited");
            assertTrue(handled.await(30, TimeUnit.SECONDS));
        }
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + table.limitsTable()));
    }

    @Test
    void experimentLayoutsKeepTheirColumnsAndIndexes() {
        String ddl = Schema.ddl(QueueTable.of(Layout.QUEUE_TASKS_3));
        assertTrue(ddl.contains("request_id        text"));
        assertTrue(ddl.contains("CREATE UNIQUE INDEX queue_tasks_3_claim_idx ON queue_tasks_3 USING btree "
                + "(queue_name, next_process_at, id DESC) WITH (fillfactor = 30)"));
        assertTrue(ddl.contains(") WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500,"
                + " autovacuum_vacuum_scale_factor = 0.0001);"));
        String baseline = Schema.ddl(QueueTable.of(Layout.QUEUE_TASKS_1));
        assertTrue(!baseline.contains("INDEX queue_tasks_1_claim_idx") && !baseline.contains("request_id"));
        assertEquals(6, Layout.QUEUE_TASKS_4.partitions());
        assertEquals(8, Layout.QUEUE_TASKS_5.partitions());
        assertEquals(10, Layout.QUEUE_TASKS_6.partitions());
    }

    @Test
    void namesThatCouldReachSqlTextAreValidated() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QueueTable("tasks; DROP TABLE x", Layout.DBQ_SEQ))
                .getMessage().startsWith("name must be a table name of 1 to 48 characters"));
        assertThrows(IllegalArgumentException.class, () -> new QueueTable("Tasks", Layout.DBQ_SEQ));
        assertThrows(IllegalArgumentException.class, () -> new QueueTable("t".repeat(51), Layout.DBQ_SEQ));
        assertEquals("queueName must be a queue name of 1 to 128 characters from A-Z, a-z, 0-9 and _ . : -, was ",
                assertThrows(IllegalArgumentException.class, () -> QueueTable.of(Layout.DBQ_SEQ).queue("")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueueTable.of(Layout.DBQ_SEQ).queue("a'b"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Layout.named("queue_tasks_9")).getMessage()
                .startsWith("unknown layout 'queue_tasks_9'; known layouts: [queue_tasks_1"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Layout.DBQ_SEQ.withTableOptions(Map.of("fillfactor", "1); DROP TABLE x; --"))).getMessage()
                .endsWith(", was fillfactor=1); DROP TABLE x; --"));
        assertThrows(IllegalArgumentException.class, () -> Layout.DBQ_SEQ.withPartitions(-1));
    }
}
