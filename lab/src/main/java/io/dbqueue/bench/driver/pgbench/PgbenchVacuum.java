package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.maintenance.VacuumPolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The vacuum the library's workers run on their own table ({@link VacuumPolicy#DEFAULT}: after every
 * 10,000 tasks, at most once a second, {@code VACUUM (SKIP_LOCKED, TRUNCATE false)}), run for a
 * pgbench load, so that the ceiling's table is kept as the library keeps its own. On a stock server
 * autovacuum looks at a table once a minute; without this the dead entries at the head of the claim
 * index slow every claim within seconds, and pgbench would measure that instead of the statements.
 * Counted in processed messages (the counter's), where the library counts claimed tasks.
 */
final class PgbenchVacuum implements AutoCloseable {

    private final Connection connection;
    private final String statement;
    private final VacuumPolicy policy;
    private final AtomicReference<Throwable> failure;
    private final AtomicBoolean running = new AtomicBoolean();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-pgbench-vacuum");
        t.setDaemon(true);
        return t;
    });
    private long processedAtLast;
    private long lastStart = System.nanoTime();
    private volatile long vacuums;

    PgbenchVacuum(Connection connection, String table, VacuumPolicy policy, AtomicReference<Throwable> failure) {
        this.connection = connection;
        this.statement = "VACUUM (SKIP_LOCKED, TRUNCATE false) " + table;
        this.policy = policy;
        this.failure = failure;
    }

    /** The load has processed {@code processed} messages so far: starts a vacuum when one is due. */
    void processed(long processed) {
        long now = System.nanoTime();
        if (!policy.due(processed - processedAtLast, Duration.ofNanos(now - lastStart))
                || !running.compareAndSet(false, true)) {
            return;
        }
        processedAtLast = processed;
        lastStart = now;
        try {
            thread.execute(this::vacuum);
        } catch (RejectedExecutionException closed) {
            running.set(false);
        }
    }

    /** Vacuums run so far. */
    long vacuums() {
        return vacuums;
    }

    private void vacuum() {
        try (Statement st = connection.createStatement()) {
            st.execute(statement);
            vacuums++;
        } catch (SQLException e) {
            failure.compareAndSet(null, new IllegalStateException("vacuuming the pgbench load's table failed: "
                    + e.getMessage(), e));
        } finally {
            running.set(false);
        }
    }

    @Override
    public void close() throws SQLException, InterruptedException {
        thread.shutdown();
        if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
            thread.shutdownNow();
        }
        connection.close();
    }
}
