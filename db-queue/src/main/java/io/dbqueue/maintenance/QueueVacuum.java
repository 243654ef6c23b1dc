package io.dbqueue.maintenance;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vacuums one queue table per a {@link VacuumPolicy}, on a daemon thread of its own so that no
 * worker waits for it. {@code SKIP_LOCKED}: a vacuum already running (autovacuum, another process)
 * is not waited for (PostgreSQL warns that it skipped the table, and the next turn tries again).
 * {@code TRUNCATE false}: giving back empty pages at the table's end would take a lock that stops
 * every enqueue and claim. Before the first vacuum the role's right to vacuum the table is checked;
 * a role without it is told so once, and the vacuums stop.
 */
public final class QueueVacuum implements QueueListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueVacuum.class);
    /** SKIP_LOCKED's warning when another vacuum (autovacuum, another process) holds the table. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final String MAY_VACUUM = "SELECT pg_has_role(c.relowner, 'USAGE') OR pg_has_role(d.datdba, 'USAGE')"
            + " OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
            + " OR CASE WHEN current_setting('server_version_num')::int >= 170000"
            + " THEN has_table_privilege(c.oid, 'MAINTAIN') ELSE false END"
            + " FROM pg_class c, pg_database d WHERE c.oid = ?::regclass AND d.datname = current_database()";

    private final DataSource dataSource;
    private final VacuumPolicy policy;
    private final String table;
    private final String statement;
    private final AtomicLong claimed = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong vacuums = new AtomicLong();
    private final ExecutorService thread;
    private volatile long lastStart = System.nanoTime();
    private volatile boolean refused;
    private volatile boolean permitted;

    public QueueVacuum(DataSource dataSource, QueueTable table, VacuumPolicy policy) {
        this.dataSource = dataSource;
        this.policy = policy;
        this.table = table.name();
        this.statement = "VACUUM (SKIP_LOCKED, TRUNCATE false) " + this.table;
        this.thread = Executors.newSingleThreadExecutor(DaemonThreads.named("dbq-vacuum-" + this.table));
    }

    /** Counts claimed tasks and starts a vacuum when the policy says one is due and none is running. */
    @Override
    public void picked(QueueLocation queue, List<Task> picked, long claimNanos) {
        int tasks = picked.size();
        if (tasks == 0 || refused) {
            return;
        }
        long count = claimed.addAndGet(tasks);
        if (policy.due(count, Duration.ofNanos(System.nanoTime() - lastStart)) && running.compareAndSet(false, true)) {
            claimed.set(0);
            lastStart = System.nanoTime();
            try {
                thread.execute(this::vacuum);
            } catch (RejectedExecutionException closed) {
                running.set(false);
            }
        }
    }

    /** Whether the role may not vacuum the table, so that the vacuums stopped. */
    boolean refused() {
        return refused;
    }

    /** Vacuums run so far (skipped ones included: VACUUM ran and skipped a table another vacuum held). */
    long vacuums() {
        return vacuums.get();
    }

    private void vacuum() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true); // VACUUM cannot run inside a transaction block
            }
            if (!permitted && !permitted(c)) {
                refused = true;
                LOG.warn("{}: this role may not vacuum the table; leaving it to autovacuum. Make the role the table's"
                        + " owner (or grant it MAINTAIN on PostgreSQL 17+), or set the queue's vacuum policy to OFF", table);
                return;
            }
            permitted = true;
            st.execute(statement);
            vacuums.incrementAndGet();
            for (SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
                if (LOCK_NOT_AVAILABLE.equals(w.getSQLState())) {
                    LOG.debug("{}: another vacuum holds the table, trying again later", table);
                } else {
                    LOG.warn("{}: {}", table, w.getMessage()); // e.g. an xmin horizon far in the past
                }
            }
        } catch (SQLException e) {
            LOG.debug("{}: vacuum failed, trying again after the next {} claimed tasks: {}", table,
                    policy.claimedTasks(), e.getMessage());
        } finally {
            running.set(false);
        }
    }

    /**
     * Whether this role may vacuum the table: its owner (or a member of the owning role), the
     * database's owner, a superuser, or on PostgreSQL 17 and later a role with MAINTAIN on it. Asked
     * rather than read from VACUUM's warnings, which say "skipped" for a lock held elsewhere too.
     */
    private boolean permitted(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(MAY_VACUUM)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
