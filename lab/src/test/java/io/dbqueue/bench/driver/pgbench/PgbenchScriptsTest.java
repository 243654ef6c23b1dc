package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.bench.driver.pgbench.PgbenchScripts.QueryMode;
import io.dbqueue.bench.driver.pgbench.PgbenchScripts.Script;
import io.dbqueue.bench.driver.pgbench.PgbenchScripts.Statements;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.bench.workload.WorkloadFile;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pgbench scripts, as text: every placeholder bound, the right protocol, the library's steps in order. */
class PgbenchScriptsTest {

    private static Statements statements(Layout layout, int batch, DeliveryMode mode) {
        return PgbenchDriver.statements(QueueTable.of(layout), batch, mode);
    }

    @ParameterizedTest
    @EnumSource(DeliveryMode.class)
    void everyPlaceholderOfEveryLayoutBecomesAVariable(DeliveryMode mode) {
        for (Layout layout : Layout.presets()) {
            Statements sql = statements(layout, 10, mode);
            for (QueryMode qm : QueryMode.values()) {
                String text = PgbenchScripts.consumer(sql, mode, 10, qm).text()
                        + PgbenchScripts.producer(sql, 10, 100).text();
                assertFalse(text.contains("?"), layout.name() + " " + qm + ": " + text);
            }
        }
    }

    @Test
    void preparedModeBindsParametersAndSimpleModeQuotesText() {
        Statements sql = statements(Layout.DBQ_SEQ, 10, DeliveryMode.AT_LEAST_ONCE);
        String prepared = PgbenchScripts.consumer(sql, DeliveryMode.AT_LEAST_ONCE, 10, QueryMode.PREPARED).text();
        assertTrue(prepared.contains("queue_name = :queue"), prepared);
        assertTrue(prepared.contains("now() + :lease * interval"), prepared);
        assertTrue(prepared.contains("ANY(:ids::bigint[])"), prepared);
        String simple = PgbenchScripts.consumer(sql, DeliveryMode.AT_LEAST_ONCE, 10, QueryMode.SIMPLE).text();
        assertTrue(simple.contains("queue_name = ':queue'"), simple);
        assertTrue(simple.contains("now() + :lease * interval"), simple);
        assertTrue(simple.contains("ANY(':ids'::bigint[])"), simple);
        String producer = PgbenchScripts.producer(sql, 10, 100).text();
        assertTrue(producer.contains("SELECT :queue, p FROM unnest(:payloads::text[])"), producer);
        assertTrue(producer.startsWith("\\if :ready = 0\n"), producer);
        assertTrue(producer.contains("SELECT array_agg('0;"), producer);
        assertTrue(producer.contains("generate_series(1, 10)"), producer);
    }

    /** The ceiling claims as the library's workers do: consumer_batch where the workload sets one, else the cell's. */
    @Test
    void theLibrarysConsumersClaimWhatItsWorkersClaimWhateverTheProducersBatch() {
        Workload base = WorkloadFile.profile("default");
        QueueTable table = QueueTable.of(Layout.DBQ_SEQ_PK);
        String set = PgbenchDriver.libraryConsumer(table, base.toBuilder().consumerBatch(100).build(), 1).text();
        assertTrue(set.contains(" LIMIT 100 FOR UPDATE SKIP LOCKED"), set);
        String unset = PgbenchDriver.libraryConsumer(table, base.toBuilder().consumerBatch(0).build(), 1).text();
        assertTrue(unset.contains(" LIMIT 1 FOR UPDATE SKIP LOCKED"), unset);
    }

    @Test
    void aPlaceholderWithoutAKnownPlaceIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PgbenchScripts.bind("SELECT * FROM t WHERE id >= ?", QueryMode.PREPARED));
        assertThrows(IllegalArgumentException.class,
                () -> PgbenchScripts.bind("SELECT :x FROM t", QueryMode.PREPARED), "a lone colon is a pgbench variable");
        assertEquals("SELECT '?' FROM t WHERE queue_name = :queue",
                PgbenchScripts.bind("SELECT '?' FROM t WHERE queue_name = ?", QueryMode.PREPARED));
    }

    @Test
    void atLeastOnceClaimsWithItsSettingsInOneMessageThenFinishesWithItsOwn() {
        Script script = PgbenchScripts.consumer(statements(Layout.DBQ_SEQ, 10, DeliveryMode.AT_LEAST_ONCE),
                DeliveryMode.AT_LEAST_ONCE, 10);
        assertEquals(QueryMode.SIMPLE, script.mode(), "a plain table runs the compound in simple mode");
        String[] lines = script.text().split("\n");
        assertTrue(lines[0].startsWith("SELECT set_config("), lines[0]);
        assertTrue(lines[0].contains("set_config('synchronous_commit', 'off', true) \\; WITH c AS (UPDATE "), lines[0]);
        assertTrue(lines[0].endsWith("SELECT count(*) AS n, array_agg(id) AS ids, array_agg(payload) AS payloads"
                + " FROM c \\gset"), lines[0]);
        assertEquals("\\if :n > 0", lines[1]);
        assertTrue(lines[2].startsWith("SELECT set_config('synchronous_commit', 'off', true) \\; DELETE FROM dbq_seq"
                + " WHERE id = ANY("), lines[2]);
        assertTrue(script.text().contains("\\if :n = 0\n\\sleep 100 ms\n\\elif :n < 10\n\\sleep 10 ms\n\\endif\n"),
                script.text());
    }

    @Test
    void aPartitionedTableRunsPreparedWithAnExplicitTransaction() {
        Script script = PgbenchScripts.consumer(statements(Layout.QUEUE_TASKS_4, 10, DeliveryMode.AT_LEAST_ONCE),
                DeliveryMode.AT_LEAST_ONCE, 10);
        assertEquals(QueryMode.PREPARED, script.mode());
        assertTrue(script.text().startsWith("BEGIN;\nSELECT set_config("), script.text());
        assertFalse(script.text().contains("\\;"), "prepared mode refuses compounds");
        assertTrue(script.text().contains("\\if :n > 0\nBEGIN;\nSELECT set_config('synchronous_commit', 'off', true);\n"
                + "DELETE FROM queue_tasks_4 WHERE id = ANY(:ids::bigint[]);\nCOMMIT;\n\\endif\n"), script.text());
    }

    @Test
    void exactlyOnceFinishesInTheClaimsTransactionWithGenericPlansOnAPartitionedTable() {
        Statements sql = statements(Layout.QUEUE_TASKS_4, 20, DeliveryMode.EXACTLY_ONCE);
        String prepared = PgbenchScripts.consumer(sql, DeliveryMode.EXACTLY_ONCE, 20).text();
        assertTrue(prepared.matches("(?s)BEGIN;\nSELECT set_config\\('dbq\\.saved_.*\nWITH c AS \\(SELECT .* FOR UPDATE"
                + " SKIP LOCKED\\) SELECT count.* \\\\gset\nSELECT set_config\\('enable_seqscan', current_setting.*;\n"
                + "\\\\if :n > 0\nSET LOCAL plan_cache_mode = force_generic_plan;\nDELETE FROM queue_tasks_4 .*;\n"
                + "\\\\endif\nCOMMIT;\n.*"), prepared);
        String simple = PgbenchScripts.consumer(sql, DeliveryMode.EXACTLY_ONCE, 20, QueryMode.SIMPLE).text();
        String first = simple.lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("BEGIN \\; SELECT set_config("), first);
        assertTrue(first.endsWith("current_setting('dbq.saved_enable_sort'), true) \\aset"),
                "the restore travels with the claim, and \\aset keeps the claim's columns: " + first);
        assertTrue(simple.contains("\\if :n > 0\nSET LOCAL plan_cache_mode = force_generic_plan \\; DELETE FROM"
                + " queue_tasks_4 WHERE id = ANY(':ids'::bigint[]) \\; COMMIT;\n\\else\nCOMMIT;\n\\endif\n"), simple);
    }

    @Test
    void aClaimWithoutSettingsNeedsNoCompoundAndRunsPrepared() {
        Script script = PgbenchScripts.consumer(statements(Layout.QUEUE_TASKS_1, 1, DeliveryMode.AT_MOST_ONCE),
                DeliveryMode.AT_MOST_ONCE, 1);
        assertEquals(QueryMode.PREPARED, script.mode());
        assertTrue(script.text().startsWith("WITH c AS (DELETE FROM queue_tasks_1 WHERE id = ANY(ARRAY(SELECT id"),
                script.text());
        assertFalse(script.text().contains("\\elif"), "a batch of one is never partial");
        assertFalse(script.text().contains("\\if :n > 0"), "at most once has no finish");
    }

    @Test
    void theMinimalQueueIsTheBriefsStatements() {
        String producer = PgbenchScripts.minimalProducer(10, 64).text();
        assertTrue(producer.matches("INSERT INTO pgbench_minimal_queue \\(payload\\) SELECT '0;[A-Za-z0-9]{62}'::text"
                + " FROM generate_series\\(1, 10\\);\n"), producer);
        Script consumer = PgbenchScripts.minimalConsumer(10);
        assertEquals(QueryMode.PREPARED, consumer.mode());
        assertTrue(consumer.text().startsWith("WITH c AS (DELETE FROM pgbench_minimal_queue WHERE id = ANY(ARRAY("
                + "SELECT id FROM pgbench_minimal_queue ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 10))"
                + " RETURNING id, payload, created_at) SELECT count(*) AS n"), consumer.text());
    }

    @Test
    void theStudysQueueInsertsOneRowPerStatementAndArchivesWhatItClaims() {
        assertTrue(PgbenchScripts.studyProducer(3, 64).text().matches(
                "(INSERT INTO pgbench_study_queue \\(payload\\) VALUES \\('0;[A-Za-z0-9]{62}'::text\\);\n){3}"));
        Script consumer = PgbenchScripts.studyConsumer();
        assertEquals(QueryMode.PREPARED, consumer.mode());
        assertTrue(consumer.text().startsWith("WITH claimed AS (DELETE FROM pgbench_study_queue WHERE id = (SELECT id"
                + " FROM pgbench_study_queue ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING id, payload,"
                + " created_at), c AS (INSERT INTO pgbench_study_archive (id, payload, created_at)"), consumer.text());
        assertFalse(consumer.text().contains("\\elif"), "a claim of one row is never partial");
    }
}
