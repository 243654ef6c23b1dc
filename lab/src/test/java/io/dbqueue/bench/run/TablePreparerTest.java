package io.dbqueue.bench.run;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.workload.LabLayout;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** On a real server: a repetition without a queue table still starts from a checkpoint. */
class TablePreparerTest {

    @Test
    void aCheckpointAloneMovesTheServersLastCheckpoint() throws Exception {
        try (HikariDataSource ds = PostgresServer.shared().dataSource(2)) {
            TablePreparer preparer = new TablePreparer(ds, new PrintStream(new ByteArrayOutputStream()));
            preparer.checkpoint();
            String before = lastCheckpoint(ds);

            preparer.checkpoint();

            assertNotEquals(before, lastCheckpoint(ds));
        }
    }

    /** The same-run comparison of the headers column: a {@code _no_headers} layout's tables are created without it. */
    @Test
    void aNoHeadersLayoutsTablesLackTheHeadersColumnAndThePresetsHaveIt() throws Exception {
        try (HikariDataSource ds = PostgresServer.shared().dataSource(2)) {
            TablePreparer preparer = new TablePreparer(ds, new PrintStream(new ByteArrayOutputStream()));
            for (String layout : new String[] {"dbq_seq_pk", "dbq_seq_pk" + LabLayout.NO_HEADERS,
                    "dbq_seq_priority_key" + LabLayout.NO_HEADERS}) {
                preparer.prepare(LabLayout.table(layout).queue("q"), 10, 100, 0, 10);
                assertEquals(layout.endsWith(LabLayout.NO_HEADERS) ? 0 : 2, count(ds, "SELECT count(*) FROM pg_attribute"
                        + " WHERE attrelid IN ('" + layout + "'::regclass, '" + layout + "_dead'::regclass)"
                        + " AND attname = 'headers' AND NOT attisdropped"), layout);
                assertEquals(10, count(ds, "SELECT count(*) FROM " + layout), layout);
            }
        }
    }

    /** A drain of a priority queue crosses its levels: the backlog's batches cycle through them as the producers' do. */
    @Test
    void aPriorityLayoutsBacklogCyclesItsBatchesThroughThePrioritiesAndTheOthersIgnoreThem() throws Exception {
        try (HikariDataSource ds = PostgresServer.shared().dataSource(2)) {
            TablePreparer preparer = new TablePreparer(ds, new PrintStream(new ByteArrayOutputStream()));
            preparer.prepare(LabLayout.table("dbq_seq_priority").queue("q"), 10, 100, 4, 2);
            preparer.prepare(LabLayout.table("dbq_seq_pk").queue("q"), 10, 100, 4, 2);

            assertEquals("0,0,1,1,2,2,3,3,0,0", text(ds, "SELECT string_agg(priority::text, ',' ORDER BY id)"
                    + " FROM dbq_seq_priority"));
            assertEquals(10, count(ds, "SELECT count(*) FROM dbq_seq_pk"));
        }
    }

    private static String text(HikariDataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static long count(HikariDataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String lastCheckpoint(HikariDataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT checkpoint_lsn::text FROM pg_control_checkpoint()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
