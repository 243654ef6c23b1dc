package io.dbqueue.schedule;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * The schedules table, {@code dbq_schedules}: a row per schedule with its next due tick, which the
 * process that takes the tick moves on in the transaction that enqueues the tick's task.
 */
public final class ScheduleSchema {

    public static final String TABLE = "dbq_schedules";

    private ScheduleSchema() {
    }

    /** The table's DDL, as {@code sql/dbq_schedules.sql} shows it. */
    public static String ddl() {
        return "-- dbq_schedules: one row per recurring task (io.dbqueue.schedule); the process that takes a tick\n"
                + "-- enqueues its task and moves next_due on in one transaction, holding the row's lock\n"
                + "CREATE TABLE IF NOT EXISTS " + TABLE + " (\n"
                + "    name        text PRIMARY KEY,\n"
                + "    queue_table text NOT NULL,\n"
                + "    queue_name  text NOT NULL,\n"
                + "    payload     text NOT NULL,\n"
                + "    cron        text,\n"
                + "    zone        text,\n"
                + "    interval_ms bigint,\n"
                + "    missed      text NOT NULL CHECK (missed IN ('RUN_ONCE', 'RUN_ALL')),\n"
                + "    next_due    timestamptz NOT NULL,\n"
                + "    paused      boolean NOT NULL DEFAULT false,\n"
                + "    updated_at  timestamptz NOT NULL DEFAULT now(),\n"
                + "    CHECK ((cron IS NOT NULL AND zone IS NOT NULL AND interval_ms IS NULL)\n"
                + "        OR (cron IS NULL AND zone IS NULL AND interval_ms > 0))\n"
                + ");\n";
    }

    /**
     * Creates the table unless it exists; nothing is run when it does, so a role without the right to
     * create may start against it. An advisory lock serialises processes starting at once.
     */
    public static void createIfMissing(DataSource dataSource) {
        Jdbc.autoCommitted(dataSource, "create " + TABLE, c -> Jdbc.inTransaction(c, tx -> {
            try (PreparedStatement lock = tx.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
                lock.setString(1, TABLE);
                lock.execute();
            }
            if (!Jdbc.tableVisible(tx, TABLE)) {
                try (Statement st = tx.createStatement()) {
                    st.execute(ddl());
                }
            }
            return null;
        }));
    }

    /** Drops the table and every schedule in it: for tests. */
    public static void drop(DataSource dataSource) {
        Jdbc.autoCommitted(dataSource, "drop " + TABLE, c -> Jdbc.update(c, "DROP TABLE IF EXISTS " + TABLE));
    }
}
