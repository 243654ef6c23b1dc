package io.dbqueue.serverwatch;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.serverwatch.VacuumReport.TableVacuum;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A transaction left open holds the horizon; the watch must name the table it hurts and the holder. */
class VacuumWatchTest {

    /** Any horizon counts as held (older than 0 transactions); more than 100 dead tuples count as hurt. */
    private static final VacuumThresholds ANY_HELD_HORIZON = new VacuumThresholds(Duration.ofHours(1), 0, 100);
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final int DELETED = 500;

    private static final class Events implements VacuumListener {
        final List<String> alerts = new CopyOnWriteArrayList<>();
        final AtomicInteger checks = new AtomicInteger();

        @Override
        public void checked(VacuumReport report) {
            checks.incrementAndGet();
        }

        @Override
        public void blocked(TableVacuum table, HorizonHolder holder) {
            alerts.add("blocked " + table.table() + " by " + holder.name());
        }

        @Override
        public void cleared(TableVacuum table) {
            alerts.add("cleared " + table.table());
        }
    }

    @Test
    void reportsTheTableAnOpenTransactionKeepsDeadTuplesInAndClearsWhenItCommits() throws Exception {
        DataSource dataSource = TestDatabase.dataSource();
        QueueTable blocked = TestDatabase.freshTable(Layout.DBQ_SEQ);
        QueueTable healthy = TestDatabase.freshTable(Layout.DBQ_SEQ_COVERING);
        new QueueProducer(dataSource, healthy.queue("q")).enqueueAll(payloads(50));
        Events events = new Events();
        VacuumWatch watch = new VacuumWatch(dataSource, List.of(blocked, healthy, blocked), ANY_HELD_HORIZON,
                List.of(events));
        assertEquals(List.of(blocked.name(), healthy.name()), watch.tables());

        int holderPid;
        try (Connection holder = holdHorizon(blocked)) {
            holderPid = (int) queryLong(holder, "SELECT pg_backend_pid()");
            new QueueProducer(dataSource, blocked.queue("q")).enqueueAll(payloads(DELETED));
            deleteAllAndVacuum(blocked);

            Await.until(TIMEOUT, "the watch to call " + blocked.name() + " blocked",
                    () -> watch.check().table(blocked.name()).blocked());
            VacuumReport report = watch.check();
            HorizonHolder horizon = report.horizon().orElseThrow();
            assertEquals(HorizonHolder.Kind.SESSION, horizon.kind());
            assertEquals(holderPid, horizon.pid(), horizon.describe());
            assertEquals(String.valueOf(holderPid), horizon.name());
            assertEquals("idle in transaction", horizon.state());
            assertTrue(horizon.ageTransactions() > 0, "age in transactions: " + horizon.ageTransactions());
            assertTrue(horizon.age().orElseThrow().compareTo(Duration.ZERO) > 0, "age: " + horizon.age());

            TableVacuum table = report.table(blocked.name());
            assertTrue(table.deadTuples() >= DELETED, "dead tuples: " + table.deadTuples());
            assertTrue(table.lastVacuum() != null, "the VACUUM ran and could not remove them");
            assertTrue(table.totalBytes() > 0);
            TableVacuum other = report.table(healthy.name());
            assertFalse(other.blocked(), "no dead tuples, nothing to block: " + other);
            assertEquals(0, other.deadTuples());
            assertEquals(List.of(blocked.name()), report.blocked().stream().map(TableVacuum::table).toList());
            assertEquals(List.of("blocked " + blocked.name() + " by " + holderPid), events.alerts,
                    "one alert per holder, however often it is checked");
            holder.commit();
        }

        Await.until(TIMEOUT, "the block of " + blocked.name() + " to clear",
                () -> !watch.check().table(blocked.name()).blocked());
        assertEquals(List.of("blocked " + blocked.name() + " by " + holderPid, "cleared " + blocked.name()),
                events.alerts);
        assertTrue(watch.latest().orElseThrow().blocked().isEmpty());
    }

    @Test
    void aRoleWithoutMonitoringRightsStillFindsTheHolder() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        TestDatabase.execute("""
                DO $$ BEGIN
                    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dbq_vacuum_watch_test') THEN
                        CREATE ROLE dbq_vacuum_watch_test NOLOGIN;
                    END IF;
                END $$""");
        PostgresServer server = TestDatabase.server();
        PGSimpleDataSource unprivileged = new PGSimpleDataSource();
        unprivileged.setUrl(server.jdbcUrl());
        unprivileged.setUser(server.user());
        unprivileged.setPassword(server.password());
        unprivileged.setOptions("-c role=dbq_vacuum_watch_test");
        try (Connection c = unprivileged.getConnection()) {
            assertEquals("dbq_vacuum_watch_test", queryString(c, "SELECT current_user"));
        }
        VacuumWatch watch = new VacuumWatch(unprivileged, List.of(table), ANY_HELD_HORIZON, List.of());

        try (Connection holder = holdHorizon(table)) {
            int holderPid = (int) queryLong(holder, "SELECT pg_backend_pid()");
            new QueueProducer(TestDatabase.dataSource(), table.queue("q")).enqueueAll(payloads(DELETED));
            deleteAllAndVacuum(table);

            Await.until(TIMEOUT, "the watch to call " + table.name() + " blocked",
                    () -> watch.check().table(table.name()).blocked());
            HorizonHolder horizon = watch.latest().orElseThrow().horizon().orElseThrow();
            assertEquals(holderPid, horizon.pid());
            assertTrue(horizon.ageTransactions() > 0);
            assertNull(horizon.state(), "another role's session state is hidden without pg_read_all_stats");
            assertTrue(horizon.age().isEmpty(), "so is its transaction start");
            assertTrue(watch.latest().orElseThrow().table(table.name()).deadTuples() >= DELETED);
            holder.rollback();
        }
    }

    /**
     * Needs prepared transactions: the embedded test server allows them ({@link TestDatabase#SERVER_SETTINGS}),
     * so there it must run; an external server that does not (max_prepared_transactions 0, the default) skips it.
     */
    @Test
    void namesAForgottenPreparedTransaction() throws Exception {
        long allowed = TestDatabase.queryLong("SELECT current_setting('max_prepared_transactions')::int");
        if (TestDatabase.server().isEmbedded()) {
            assertTrue(allowed > 0, "the embedded test server starts with " + TestDatabase.SERVER_SETTINGS);
        }
        assumeTrue(allowed > 0, "max_prepared_transactions is 0 on the external server (" + PostgresServer.JDBC_URL_ENV
                + "), which allows no prepared transaction to forget");
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        VacuumWatch watch = new VacuumWatch(TestDatabase.dataSource(), List.of(table), ANY_HELD_HORIZON,
                List.of());
        String gid = "dbq_vacuum_watch_test_" + ProcessHandle.current().pid();
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            st.execute("BEGIN");
            st.execute("SELECT txid_current()");
            st.execute("PREPARE TRANSACTION '" + gid + "'");
        }
        try {
            new QueueProducer(TestDatabase.dataSource(), table.queue("q")).enqueueAll(payloads(DELETED));
            deleteAllAndVacuum(table);
            Await.until(TIMEOUT, "the watch to call " + table.name() + " blocked",
                    () -> watch.check().table(table.name()).blocked());
            HorizonHolder horizon = watch.latest().orElseThrow().horizon().orElseThrow();
            assertEquals(HorizonHolder.Kind.PREPARED_TRANSACTION, horizon.kind());
            assertEquals(gid, horizon.name());
            assertTrue(horizon.ageTransactions() > 0);
            assertTrue(horizon.age().isPresent());
        } finally {
            TestDatabase.execute("ROLLBACK PREPARED '" + gid + "'");
        }
    }

    @Test
    void checksPeriodicallyOnceStartedUntilClosed() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        Events events = new Events();
        VacuumWatch watch = new VacuumWatch(TestDatabase.dataSource(), List.of(table), VacuumThresholds.DEFAULT,
                List.of(events));
        assertTrue(watch.latest().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> watch.start(Duration.ZERO));
        try (watch) {
            watch.start(Duration.ofMillis(20));
            assertThrows(IllegalStateException.class, watch::start);
            Await.until(TIMEOUT, "three periodic checks", () -> events.checks.get() >= 3);
        }
        VacuumReport report = watch.latest().orElseThrow();
        assertEquals(List.of(table.name()), report.tables().stream().map(TableVacuum::table).toList());
        assertTrue(report.blocked().isEmpty());
        assertTrue(events.alerts.isEmpty());
    }

    @Test
    void aTableThatDoesNotExistReadsAsEmpty() {
        VacuumWatch watch = new VacuumWatch(TestDatabase.dataSource(),
                List.of(new QueueTable("no_such_queue_table", Layout.DBQ_SEQ)));
        TableVacuum table = watch.check().table("no_such_queue_table");
        assertEquals(new TableVacuum("no_such_queue_table", 0, 0, 0, null, null, false), table);
    }

    /** A connection in a REPEATABLE READ transaction that has an xid and a snapshot: it holds the horizon. */
    private static Connection holdHorizon(QueueTable table) throws SQLException {
        Connection holder = TestDatabase.server().connect();
        try {
            holder.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            holder.setAutoCommit(false);
            queryLong(holder, "SELECT txid_current()");
            queryLong(holder, "SELECT count(*) FROM " + table.name());
            return holder;
        } catch (SQLException | RuntimeException e) {
            holder.close();
            throw e;
        }
    }

    /**
     * Deletes every row (the queue's finish) and vacuums; the deleting session flushes its statistics at
     * once, and VACUUM reports the dead tuples it had to keep.
     */
    private static void deleteAllAndVacuum(QueueTable table) throws SQLException {
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_force_next_flush()");
            assertEquals(DELETED, st.executeUpdate("DELETE FROM " + table.name()));
            st.execute("VACUUM " + table.name());
        }
    }

    private static List<String> payloads(int count) {
        return IntStream.range(0, count).mapToObj(i -> "task-" + i).toList();
    }

    private static long queryLong(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String queryString(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
