package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Schema;
import io.dbqueue.bench.workload.LabLayout;

import javax.sql.DataSource;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Puts every repetition at the same start: the table dropped and created from its layout, the
 * workload's backlog inserted, statistics analysed and a CHECKPOINT so that no earlier cell's dirty
 * pages are flushed during the next measurement. Cells without a queue table (the log's topic, the
 * brokers') get the CHECKPOINT alone ({@link #checkpoint()}): it also recycles the WAL segments
 * before it, so that a repetition does not pay for zero-filling new ones.
 */
final class TablePreparer {

    private final DataSource admin;
    private final PrintStream log;
    private boolean checkpointRefused;

    TablePreparer(DataSource admin, PrintStream log) {
        this.admin = admin;
        this.log = log;
    }

    void prepare(QueueLocation location, long backlog, int messageSize) throws SQLException {
        Schema.drop(admin, location.table());
        try (Connection c = admin.getConnection(); Statement st = c.createStatement()) {
            st.execute(LabLayout.ddl(location.table()));
            if (backlog > 0) {
                String insert = "INSERT INTO " + location.table().name() + " (queue_name, payload) SELECT ?, "
                        + new Payloads(messageSize).unmeasuredSql() + " FROM generate_series(1, ?)";
                try (PreparedStatement ps = c.prepareStatement(insert)) {
                    ps.setString(1, location.queueName());
                    ps.setLong(2, backlog);
                    ps.executeUpdate();
                }
            }
            st.execute("VACUUM ANALYZE " + location.table().name());
            checkpoint(st);
        }
    }

    /** A CHECKPOINT alone, before a repetition of a driver without a queue table. */
    void checkpoint() throws SQLException {
        try (Connection c = admin.getConnection(); Statement st = c.createStatement()) {
            checkpoint(st);
        }
    }

    private void checkpoint(Statement st) {
        if (checkpointRefused) {
            return;
        }
        try {
            st.execute("CHECKPOINT");
        } catch (SQLException e) {
            checkpointRefused = true;
            log.println("warning: CHECKPOINT refused (" + e.getMessage().lines().findFirst().orElse("")
                    + "); cells start without one");
        }
    }
}
