package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import io.dbqueue.spring.health.DbQueueHealthIndicator;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class HealthTest {

    /** How long a check may take: its 1 s timeout, and time to spare on a busy machine (the pool would wait 30 s). */
    private static final Duration BOUND = Duration.ofSeconds(3);

    @Test
    void upWithDepthAndWorkerStatePerQueue() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.consumed.table=" + table, "dbq.queues.consumed.layout=dbq_seq",
                        "dbq.queues.produced.table=" + table, "dbq.queues.produced.layout=dbq_seq")
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("consumed"))
                .run(context -> {
                    context.getBean(DbQueues.class).producer("produced").enqueueAll(List.of("a", "b", "c"));
                    Health health = context.getBean("dbQueueHealthIndicator", DbQueueHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    Map<?, ?> produced = (Map<?, ?>) health.getDetails().get("produced");
                    assertThat(produced.get("depth")).isEqualTo(3L);
                    assertThat(produced.get("workers")).isEqualTo("none");
                    assertThat(produced.get("location")).isEqualTo(table + "/produced");
                    Map<?, ?> consumed = (Map<?, ?>) health.getDetails().get("consumed");
                    assertThat(consumed.get("workers")).isEqualTo("running");
                });
    }

    @Test
    void downWhenAQueueCannotBeRead() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    StarterTestSupport.execute("DROP TABLE " + table);
                    Health health = context.getBean(DbQueueHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(((Map<?, ?>) health.getDetails().get("main")).get("error").toString())
                            .contains(table);
                });
    }

    @Test
    void downWhenDeadLettersOrTheOldestTaskPassTheirThresholds() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.queues.work.retry.max-attempts=1",
                        "dbq.queues.old.table=" + table, "dbq.queues.old.layout=dbq_seq",
                        "dbq.queues.lenient.table=" + table, "dbq.queues.lenient.layout=dbq_seq",
                        "dbq.health.max-dead-letters=0", "dbq.health.max-oldest-age=10m",
                        "dbq.health.queues.lenient.max-oldest-age=2h")
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("work"))
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("work").enqueue("fail-once");
                    queues.producer("old").enqueue("waiting");
                    queues.producer("lenient").enqueue("waiting");
                    StarterTestSupport.execute("UPDATE " + table + " SET created_at = now() - interval '1 hour'");
                    await(Duration.ofSeconds(20), "the dead letter", () -> queues.deadLetters("work").count() == 1);
                    Health health = context.getBean(DbQueueHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    Map<?, ?> work = (Map<?, ?>) health.getDetails().get("work");
                    assertThat(work.get("deadLetters")).isEqualTo(1L);
                    assertThat(work.get("exceeded")).isEqualTo(List.of("1 dead letters, more than max-dead-letters 0"));
                    Map<?, ?> old = (Map<?, ?>) health.getDetails().get("old");
                    assertThat((List<?>) old.get("exceeded")).singleElement().asString()
                            .startsWith("oldest due task 3600 s old, older than max-oldest-age 600 s");
                    assertThat((double) old.get("oldestAgeSeconds")).isGreaterThanOrEqualTo(3600);
                    Map<?, ?> lenient = (Map<?, ?>) health.getDetails().get("lenient");
                    assertThat(lenient.get("exceeded")).as("its own threshold is 2 hours").isNull();
                    assertThat(lenient.get("deadLetters")).isEqualTo(0L);
                });
    }

    @Test
    void aBadThresholdOrAnUnknownQueueFailsStartUpNamingTheProperty() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                        "dbq.health.queues.mian.max-dead-letters=5")
                .run(context -> assertThat(messages(context.getStartupFailure())).contains(
                        "dbq.health.queues.mian names a queue that is not configured under dbq.queues (configured: [main])"));
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                        "dbq.health.max-dead-letters=-1")
                .run(context -> assertThat(messages(context.getStartupFailure())).contains(
                        "dbq.health.max-dead-letters must be at least 0, was -1"));
    }

    /**
     * While the database takes no connections (its existing ones terminated), health answers DOWN within about the
     * reading timeout, though the pool would wait 30 s for a connection; and UP at once when enqueues succeed again.
     */
    @Test
    void downWithinTheTimeoutWhileTheDatabaseIsUnreachableAndUpAsSoonAsItIsBack() throws Exception {
        PostgresServer server = PostgresServer.shared();
        String database = "dbq_starter_outage";
        String url = server.createDatabase(database);
        allowConnections(database, true); // a run that failed half-way may have left it closed
        PGSimpleDataSource direct = new PGSimpleDataSource();
        direct.setUrl(url);
        direct.setUser(server.user());
        direct.setPassword(server.password());
        QueueTable table = new QueueTable("outage", Layout.DBQ_SEQ);
        Schema.recreate(direct, table);
        runner().withPropertyValues("spring.datasource.url=" + url, "dbq.queues.main.table=outage",
                        "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    DbQueueHealthIndicator indicator = context.getBean(DbQueueHealthIndicator.class);
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("main").enqueue("before");
                    assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                    try {
                        allowConnections(database, false);
                        await(Duration.ofSeconds(10), "health DOWN", () -> {
                            long start = System.nanoTime();
                            Health health = indicator.health();
                            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
                            return health.getStatus().equals(Status.DOWN);
                        });
                        long start = System.nanoTime();
                        Health down = indicator.health();
                        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails().get("error").toString()) // the check's bound, or the ping's
                                .matches("database unreachable: .*|no answer from the database within 1000 ms");
                    } finally {
                        allowConnections(database, true);
                    }
                    await(Duration.ofSeconds(30), "an enqueue to succeed again", () -> {
                        try {
                            queues.producer("main").enqueue("after");
                            return true;
                        } catch (RuntimeException e) {
                            return false;
                        }
                    });
                    assertThat(indicator.health().getStatus()).as("no failed reading kept").isEqualTo(Status.UP);
                });
    }

    /** A queue whose count waits on a lock: the check answers DOWN within its bound, and UP once the lock is gone. */
    @Test
    void downWithinTheTimeoutWhileAQueueCannotBeCounted() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    DbQueueHealthIndicator indicator = context.getBean(DbQueueHealthIndicator.class);
                    try (Connection locker = StarterTestSupport.dataSource().getConnection();
                         Statement st = locker.createStatement()) {
                        locker.setAutoCommit(false);
                        st.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
                        long start = System.nanoTime();
                        Health health = indicator.health();

                        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
                        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                        locker.rollback();
                    }
                    await(Duration.ofSeconds(10), "health UP", () -> indicator.health().getStatus().equals(Status.UP));
                });
    }

    /** Closes database {@code name} to new connections and ends its sessions, or opens it again. */
    private static void allowConnections(String name, boolean allow) throws Exception {
        try (Connection c = PostgresServer.shared().connect(); Statement st = c.createStatement()) {
            st.execute("ALTER DATABASE " + name + " ALLOW_CONNECTIONS " + allow);
            if (!allow) {
                st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name + "'");
            }
        }
    }
}
