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
 * pages are flushed during the next measurement. On a layout with priorities, the backlog's batches
 * cycle through the workload's priorities, as the producers' batches do. Cells without a queue table
 * (the log's topic, the brokers') get the CHECKPOINT alone ({@link #checkpoint()}): it also recycles
 * the WAL segments before it, so that a repetition does not pay for zero-filling new ones.
 */
final class TablePreparer {

    private final DataSource admin;
    private final PrintStream log;
    private boolean checkpointRefused;

    TablePreparer(DataSource admin, PrintStream log) {
        this.admin = admin;
        this.log = log;
    }

    /**
     * {@code priorities} above 0 on a layout with priorities: blocks of {@code batchSize} backlog messages
     * get priorities 0, 1, ..., {@code priorities - 1}, 0, ... in turn.
     */
    void prepare(QueueLocation location, long backlog, int messageSize, int priorities, int batchSize)
            throws SQLException {
        Schema.drop(admin, location.table());
        try (Connection c = admin.getConnection(); Statement st = c.createStatement()) {
            Schema.requireServerFor(c, location.table().layout());
            st.execute(LabLayout.ddl(location.table()));
            if (backlog > 0) {
                boolean prioritised = priorities > 0 && location.table().layout().priorities();
                String insert = "INSERT INTO " + location.table().name() + " (queue_name, payload"
                        + (prioritised ? ", priority" : "") + ") SELECT ?, " + new Payloads(messageSize).unmeasuredSql()
                        + (prioritised ? ", (g - 1) / ? % ?" : "") + " FROM generate_series(1, ?) g";
                try (PreparedStatement ps = c.prepareStatement(insert)) {
                    int p = 1;
                    ps.setString(p++, location.queueName());
                    if (prioritised) {
                        ps.setLong(p++, batchSize);
                        ps.setInt(p++, priorities);
                    }
                    ps.setLong(p, backlog);
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
