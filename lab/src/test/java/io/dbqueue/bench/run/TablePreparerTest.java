package io.dbqueue.bench.run;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

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

    private static String lastCheckpoint(HikariDataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT checkpoint_lsn::text FROM pg_control_checkpoint()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
