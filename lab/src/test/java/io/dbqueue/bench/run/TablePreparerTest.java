package io.dbqueue.bench.run;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.workload.LabLayout;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On a real server: every repetition starts from a fresh table and a checkpoint. */
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

    /**
     * A layout the server is too old for is refused before its DDL runs, as Schema refuses it, and its cell fails
     * with that message. Needs a server before 18: the machine's PostgreSQL at 127.0.0.1:5432 (15 here and in CI).
     */
    @Test
    void aLayoutTheServerIsTooOldForIsRefusedAndNothingIsCreated() throws Exception {
        PGSimpleDataSource older = new PGSimpleDataSource();
        older.setURL("jdbc:postgresql://127.0.0.1:5432/postgres");
        older.setUser("postgres");
        long version;
        try {
            version = count(older, "SELECT current_setting('server_version_num')::int");
        } catch (SQLException e) {
            Assumptions.abort("no PostgreSQL at 127.0.0.1:5432: " + e.getMessage());
            return;
        }
        String table = "dbq_seq_priority_key";
        Assumptions.assumeTrue(version < LabLayout.table(table).layout().minimumServerVersion(),
                "the server at 127.0.0.1:5432 is " + version + ", not before 18");
        TablePreparer preparer = new TablePreparer(older, new PrintStream(new ByteArrayOutputStream()));
        InvalidValueException refused = assertThrows(InvalidValueException.class,
                () -> preparer.prepare(LabLayout.table(table).queue("q"), 10, 100, 4, 2));
        assertTrue(refused.getMessage().startsWith("layout needs PostgreSQL 18 or later"), refused.getMessage());
        assertEquals(0, count(older, "SELECT count(*) FROM pg_class WHERE relname = '" + table + "'"));
    }

    private static String text(HikariDataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static long count(DataSource ds, String sql) throws SQLException {
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
