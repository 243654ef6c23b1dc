package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.serverwatch.VacuumWatch;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.IntStream;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.jdbcUrl;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** The starter runs the vacuum watch for the configured tables and exposes what it sees as gauges. */
class VacuumWatchStarterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int DELETED = 500;

    @Test
    void gaugesMoveWhileATransactionHoldsTheHorizon() {
        String table = createTable(Layout.DBQ_SEQ);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.queues.other.table=" + table, "dbq.queues.other.layout=dbq_seq",
                        "dbq.vacuum-watch.interval=50ms", "dbq.vacuum-watch.horizon-transactions=0",
                        "dbq.vacuum-watch.dead-tuples=100")
                .withBean(MeterRegistry.class, () -> registry)
                .run(context -> {
                    assertThat(context.getBean(VacuumWatch.class).tables()).containsExactly(table);
                    await(TIMEOUT, "the first check", () -> !Double.isNaN(gauge(registry, "dbq.table.dead.tuples", table)));
                    assertThat(gauge(registry, "dbq.table.dead.tuples", table)).isZero();
                    assertThat(gauge(registry, "dbq.table.vacuum.blocked", table)).isZero();

                    try (Connection holder = DriverManager.getConnection(jdbcUrl(), PostgresServer.shared().user(),
                            PostgresServer.shared().password())) {
                        holder.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                        holder.setAutoCommit(false);
                        try (Statement st = holder.createStatement()) {
                            st.execute("SELECT txid_current()");
                            st.execute("SELECT count(*) FROM " + table);
                        }
                        context.getBean(DbQueues.class).producer("work")
                                .enqueueAll(IntStream.range(0, DELETED).mapToObj(i -> "task-" + i).toList());
                        deleteAllAndVacuum(table);

                        await(TIMEOUT, "the gauges to show the held horizon and the dead tuples",
                                () -> gauge(registry, "dbq.table.vacuum.blocked", table) == 1);
                        assertThat(gauge(registry, "dbq.table.dead.tuples", table)).isGreaterThanOrEqualTo(DELETED);
                        assertThat(gauge(registry, "dbq.table.vacuum.horizon.age", table)).isPositive();
                        assertThat(gauge(registry, "dbq.table.vacuum.horizon.transactions", table)).isPositive();
                        assertThat(registry.get("dbq.table.vacuum.horizon.age").tag("table", table).gauge().getId()
                                .getBaseUnit()).isEqualTo("seconds");
                        holder.commit();
                    }

                    await(TIMEOUT, "the gauges to show the horizon released",
                            () -> gauge(registry, "dbq.table.vacuum.blocked", table) == 0
                                    && gauge(registry, "dbq.table.vacuum.horizon.age", table) == 0);
                });
    }

    @Test
    void canBeSwitchedOff() {
        String table = createTable(Layout.DBQ_SEQ);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.vacuum-watch.enabled=false")
                .withBean(MeterRegistry.class, () -> registry)
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(VacuumWatch.class);
                    assertThat(registry.find("dbq.table.dead.tuples").gauge()).isNull();
                });
    }

    @Test
    void aBadValueNamesItsProperty() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.vacuum-watch.interval=0s")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("dbq.vacuum-watch.interval must be positive, was PT0S"));
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.vacuum-watch.dead-tuples=-1")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("dbq.vacuum-watch.dead-tuples must be zero or positive, was -1"));
    }

    private static double gauge(MeterRegistry registry, String name, String table) {
        Gauge gauge = registry.find(name).tag("table", table).gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    /** Deletes every row, as finished tasks are, flushing the statistics at once, then vacuums. */
    private static void deleteAllAndVacuum(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), PostgresServer.shared().user(),
                PostgresServer.shared().password()); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_force_next_flush()");
            assertThat(st.executeUpdate("DELETE FROM " + table)).isEqualTo(DELETED);
            st.execute("VACUUM " + table);
        }
    }
}
