package io.dbqueue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.queue.FoundTask;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The queue and the log on a Citus coordinator, set up as docs/shards.md says: dbq_seq_pk distributed by
 * {@code queue_name} ({@link Schema#citusDistribution}), a topic's tables in a distributed schema of their own.
 * Every statement the library sends must then run: Citus refuses {@code FOR UPDATE SKIP LOCKED} on a statement
 * it cannot route to one worker. Runs where {@code DBQ_CITUS_URL} (with {@code DBQ_CITUS_USER},
 * {@code DBQ_CITUS_PASSWORD}) names a coordinator with workers; Citus is not in Debian's packages.
 */
@EnabledIfEnvironmentVariable(named = "DBQ_CITUS_URL", matches = ".+",
        disabledReason = "no Citus coordinator: set DBQ_CITUS_URL (and DBQ_CITUS_USER, DBQ_CITUS_PASSWORD) to run")
class CitusTest {

    private static final QueueTable TABLE = QueueTable.of(Layout.DBQ_SEQ_PK);
    private static final String TOPIC_SCHEMA = "dbq_citus_orders";

    private static HikariDataSource coordinator;

    @BeforeAll
    static void distributeTheTables() throws SQLException {
        coordinator = dataSource(null);
        execute("DROP SCHEMA IF EXISTS " + TOPIC_SCHEMA + " CASCADE");
        Schema.recreate(coordinator, TABLE);
        execute(Schema.citusDistribution(TABLE));
        execute("SET citus.enable_schema_based_sharding TO on; CREATE SCHEMA " + TOPIC_SCHEMA);
    }

    @AfterAll
    static void close() {
        coordinator.close();
    }

    @Test
    void theServerIsCitusAndTheQueueTableIsDistributedByQueue() throws SQLException {
        try (Connection c = coordinator.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT distribution_column FROM citus_tables WHERE table_name = '"
                     + TABLE.name() + "'::regclass")) {
            assertTrue(rs.next(), TABLE.name() + " is a Citus table");
            assertEquals("queue_name", rs.getString(1));
        }
    }

    @Test
    void queuesOnDifferentWorkersAreEnqueuedClaimedRetriedDeadLetteredAndRequeued() throws Exception {
        List<QueueLocation> queues = IntStream.range(0, 4).mapToObj(i -> TABLE.queue("citus-" + i)).toList();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        try (DbQueue dbq = DbQueue.builder(coordinator).build()) {
            for (QueueLocation queue : queues) {
                dbq.producer(queue).enqueueAll(List.of(queue.queueName() + "/a", queue.queueName() + "/b"));
                dbq.producer(queue).enqueueOnce("once", queue.queueName() + "/keyed");
                dbq.consume(QueueConfig.of(queue).withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR,
                        Duration.ofMillis(10), 1)), batch -> batch.tasks().forEach(t -> {
                            // the first attempt at each "/b" fails, and with one attempt it is dead-lettered
                            if (t.payload().endsWith("/b") && failedOnce.add(t.payload())) {
                                batch.fail(t, "first attempt");
                            } else {
                                handled.add(t.payload());
                                batch.finish(t);
                            }
                        }));
            }
            Await.until(Duration.ofSeconds(30), "every /b dead-lettered", () -> queues.stream()
                    .allMatch(q -> dbq.queueAdmin(q).deadLetters().count() == 1));
            List<String> expected = new ArrayList<>();
            for (QueueLocation queue : queues) {
                QueueAdmin admin = dbq.queueAdmin(queue);
                long dead = admin.deadLetters().list(0, 10).get(0).id();
                assertEquals(FoundTask.State.DEAD, admin.find(dead).orElseThrow().state());
                admin.deadLetters().requeue(List.of(dead));
                expected.addAll(List.of(queue.queueName() + "/a", queue.queueName() + "/b", queue.queueName() + "/keyed"));
            }
            Await.until(Duration.ofSeconds(30), "every task handled once requeued", () -> handled.size() == expected.size());
            assertEquals(Set.copyOf(expected), handled);
        }
    }

    @Test
    void aTopicInADistributedSchemaIsWrittenAndReadByAGroup() throws Exception {
        try (HikariDataSource topicSchema = dataSource(TOPIC_SCHEMA)) {
            Topic topic = Topic.of("orders", 2);
            LogSchema.create(topicSchema, topic);
            Set<String> read = ConcurrentHashMap.newKeySet();
            try (DbQueue dbq = DbQueue.builder(topicSchema).build()) {
                dbq.topicProducer(topic.name()).sendAll(IntStream.range(0, 20)
                        .mapToObj(i -> new LogMessage("customer-" + (i % 5), "order-" + i)).toList());
                dbq.consumeTopic(GroupConfig.of(topic.name(), "billing"),
                        batch -> batch.records().forEach(r -> read.add(r.payload())));
                Await.until(Duration.ofSeconds(30), "all 20 records read", () -> read.size() == 20);
            }
        }
    }

    /** A pool on the coordinator; with {@code schema}, its connections find tables there first. */
    private static HikariDataSource dataSource(String schema) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(System.getenv("DBQ_CITUS_URL"));
        config.setUsername(System.getenv().getOrDefault("DBQ_CITUS_USER", "postgres"));
        config.setPassword(System.getenv("DBQ_CITUS_PASSWORD"));
        config.setMaximumPoolSize(8);
        if (schema != null) {
            config.setSchema(schema);
        }
        return new HikariDataSource(config);
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = coordinator.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
