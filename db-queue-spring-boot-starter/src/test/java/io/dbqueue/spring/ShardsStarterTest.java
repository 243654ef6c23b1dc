package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.Placement;
import io.dbqueue.ShardSet;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.spring.actuate.DbQueueEndpoint;
import io.dbqueue.spring.actuate.DbQueueEndpointAutoConfiguration;
import io.dbqueue.spring.health.DbQueueHealthAutoConfiguration;
import io.dbqueue.spring.health.DbQueueHealthIndicator;
import io.dbqueue.spring.listener.DbQueueListener;
import io.dbqueue.spring.listener.DbQueueListenerAutoConfiguration;
import io.dbqueue.spring.log.DbQueueLogAutoConfiguration;
import io.dbqueue.spring.metrics.DbQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.uniqueTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code dbq.shards}: two shards, each a database on a real PostgreSQL (shard a on the shared test server, shard b
 * on a server of its own; the down test stops a third). No DataSource of the application's: the queues are all on
 * shards.
 */
class ShardsStarterTest {

    private static String urlA;
    private static PostgresServer serverB;

    @BeforeAll
    static void startShards() {
        urlA = PostgresServer.shared().createDatabase("dbq_starter_shard_a");
        serverB = PostgresServer.embedded(Map.of());
    }

    @AfterAll
    static void stopShards() {
        serverB.close();
    }

    static class Listeners {
        final List<String> onA = new CopyOnWriteArrayList<>();
        final List<String> onB = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "on-a")
        void a(String message) {
            onA.add(message);
        }

        @DbQueueListener(queue = "on-b")
        void b(String message) {
            onB.add(message);
        }
    }

    /** The starter with shards a (shared server) and b ({@code b}), the queues on-a and on-b placed on each. */
    private static ApplicationContextRunner runner(PostgresServer b, String table) {
        PostgresServer a = PostgresServer.shared();
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DbQueueAutoConfiguration.class,
                        DbQueueListenerAutoConfiguration.class, DbQueueHealthAutoConfiguration.class,
                        DbQueueLogAutoConfiguration.class, VacuumWatchAutoConfiguration.class))
                .withPropertyValues("dbq.shards.a.url=" + urlA, "dbq.shards.a.username=" + a.user(),
                        "dbq.shards.a.password=" + a.password(), "dbq.shards.a.maximum-pool-size=4",
                        "dbq.shards.b.url=" + b.jdbcUrl(), "dbq.shards.b.username=" + b.user(),
                        "dbq.shards.b.password=" + b.password(), "dbq.shards.b.maximum-pool-size=4",
                        "dbq.shards.b.connection-timeout=500ms",
                        "dbq.initialize-schema=always", "dbq.shutdown-timeout=2s",
                        "dbq.queues.on-a.table=" + table, "dbq.queues.on-a.layout=dbq_seq", "dbq.queues.on-a.shard=a",
                        "dbq.queues.on-a.wakeup=notify", "dbq.queues.on-a.no-task-timeout=200ms",
                        "dbq.queues.on-b.table=" + table, "dbq.queues.on-b.layout=dbq_seq", "dbq.queues.on-b.shard=b",
                        "dbq.queues.on-b.wakeup=notify", "dbq.queues.on-b.no-task-timeout=200ms",
                        "dbq.queues.on-b.fatal-crash-timeout=100ms",
                        "dbq.queues.hashed.table=" + table, "dbq.queues.hashed.layout=dbq_seq");
    }

    @Test
    void eachQueuesMessagesLandOnItsShardAndItsListenerConsumesThem() {
        String table = uniqueTable();
        Listeners listeners = new Listeners();
        runner(serverB, table).withPropertyValues("dbq.auto-startup=false",
                        "management.endpoints.web.exposure.include=dbqueue")
                .withConfiguration(AutoConfigurations.of(DbQueueEndpointAutoConfiguration.class,
                        DbQueueMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(Listeners.class, () -> listeners).run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(QueueDataSource.class).doesNotHaveBean(DbQueue.class);
                    DbQueueShards shards = context.getBean(DbQueueShards.class);
                    assertThat(shards.names()).containsExactly("a", "b");
                    assertThat(shards.shardOf("on-a")).isEqualTo("a");
                    assertThat(shards.shardOf("on-b")).isEqualTo("b");
                    ShardSet names = ShardSet.builder().shard("a", dataSourceA()).shard("b", dataSourceB()).build();
                    assertThat(shards.shardOf("hashed")).isEqualTo(Placement.hashed().shardOfQueue("hashed", names));

                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    template.send("on-a", "to a");
                    template.sendAll("on-b", List.of("to b 1", "to b 2"));
                    // Every table exists on every shard; each queue's tasks only on its own.
                    assertThat(count(dataSourceA(), table, "on-a")).isEqualTo(1);
                    assertThat(count(dataSourceB(), table, "on-a")).isZero();
                    assertThat(count(dataSourceB(), table, "on-b")).isEqualTo(2);
                    assertThat(count(dataSourceA(), table, "on-b")).isZero();
                    assertThat(context.getBean(DbQueues.class).depth("on-b").tasks()).isEqualTo(2);
                    assertThat(context.getBean(DbQueueEndpoint.class).queue("on-b").waiting()).isEqualTo(2);
                    assertThat(context.getBean(DbQueueEndpoint.class).queue("on-a").waiting()).isEqualTo(1);

                    context.getBean(QueueConsumerWorkers.class).start();
                    await(Duration.ofSeconds(20), "both shards' tasks consumed",
                            () -> listeners.onA.size() == 1 && listeners.onB.size() == 2);
                    assertThat(listeners.onA).containsExactly("to a");
                    assertThat(listeners.onB).containsExactlyInAnyOrder("to b 1", "to b 2");
                    await(Duration.ofSeconds(10), "shard b's tasks finished", () -> count(dataSourceB(), table, "on-b") == 0);

                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    await(Duration.ofSeconds(10), "shard b's tasks counted as processed",
                            () -> registry.get("dbq.tasks.processed").tag("queue", "on-b").counter().count() == 2);
                    assertThat(registry.get("dbq.tasks.enqueued").tag("queue", "on-a").counter().count()).isEqualTo(1);

                    Health health = context.getBean(DbQueueHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    Map<?, ?> shardHealth = (Map<?, ?>) health.getDetails().get("shards");
                    assertThat(List.copyOf(shardHealth.keySet())).isEqualTo(List.of("a", "b"));
                    assertThat(((Map<?, ?>) shardHealth.get("b")).get("up")).isEqualTo(true);
                    assertThat(((Map<?, ?>) health.getDetails().get("on-b")).get("shard")).isEqualTo("b");
                });
    }

    @Test
    void aStoppedShardIsDownInHealthWhileTheOtherKeepsWorking() {
        String table = uniqueTable();
        Listeners listeners = new Listeners();
        PostgresServer stopped = PostgresServer.embedded(Map.of());
        try {
            runner(stopped, table).withBean(Listeners.class, () -> listeners).run(context -> {
                assertThat(context).hasNotFailed();
                DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                DbQueueHealthIndicator indicator = context.getBean(DbQueueHealthIndicator.class);
                template.send("on-b", "before");
                await(Duration.ofSeconds(20), "shard b consumed", () -> listeners.onB.size() == 1);

                stopped.close();
                await(Duration.ofSeconds(20), "health to report shard b down", () -> {
                    Health health = indicator.health();
                    Map<?, ?> shards = (Map<?, ?>) health.getDetails().get("shards");
                    return health.getStatus().equals(Status.DOWN) && shards != null
                            && ((Map<?, ?>) shards.get("b")).get("up").equals(false);
                });
                Health health = indicator.health();
                Map<?, ?> shards = (Map<?, ?>) health.getDetails().get("shards");
                assertThat(((Map<?, ?>) shards.get("a")).get("up")).isEqualTo(true);
                assertThat(((Map<?, ?>) shards.get("b")).containsKey("problem")).isTrue();
                assertThat(((Map<?, ?>) health.getDetails().get("on-b")).get("error").toString())
                        .startsWith("shard b unreachable");
                assertThat(((Map<?, ?>) health.getDetails().get("on-a")).containsKey("error")).isFalse();

                template.send("on-a", "while b is down");
                await(Duration.ofSeconds(20), "shard a consumed", () -> listeners.onA.contains("while b is down"));
                assertThat(messages(catchThrowable(() -> template.send("on-b", "lost")))).contains("dbq-shard-b");
            });
        } finally {
            stopped.close();
        }
    }

    @Test
    void aTransactionalEnqueueJoinsOnlyATransactionOnItsQueuesShard() {
        String table = uniqueTable();
        runner(serverB, table).withPropertyValues("dbq.auto-startup=false").run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            TransactionTemplate onA = new TransactionTemplate(
                    new DataSourceTransactionManager(context.getBean(DbQueueShards.class).dataSource("a")));
            onA.executeWithoutResult(status -> {
                template.send("on-a", "rolled back");
                status.setRollbackOnly();
            });
            assertThat(count(dataSourceA(), table, "on-a")).isZero();
            onA.executeWithoutResult(status -> template.send("on-a", "committed"));
            assertThat(count(dataSourceA(), table, "on-a")).isEqualTo(1);

            assertThatThrownBy(() -> onA.executeWithoutResult(status -> template.send("on-b", "elsewhere")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("enqueue into a queue on shard b: the calling thread's transaction is on shard a");
            assertThat(count(dataSourceB(), table, "on-b")).isZero();
        });
    }

    @Test
    void anApplicationsShardSetBeanTakesThePlaceOfDbqShards() {
        String table = uniqueTable();
        ApplicationContextRunner own = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DbQueueAutoConfiguration.class))
                .withBean(ShardSet.class, () -> ShardSet.builder().shard("a", dataSourceA()).shard("b", dataSourceB())
                        .build())
                .withPropertyValues("dbq.initialize-schema=always", "dbq.auto-startup=false",
                        "dbq.queues.on-b.table=" + table, "dbq.queues.on-b.layout=dbq_seq", "dbq.queues.on-b.shard=b");
        own.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(ShardPools.class);
            context.getBean(DbQueueTemplate.class).send("on-b", "to b");
            assertThat(count(dataSourceB(), table, "on-b")).isEqualTo(1);
        });
        own.withPropertyValues("dbq.shards.c.url=jdbc:postgresql://127.0.0.1:1/none").run(context ->
                assertThat(messages(context.getStartupFailure()))
                        .contains("dbq.shards is set, and the application defines a ShardSet bean"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dbq.queues.on-a.shard=c | dbq.queues.on-a.shard names 'c', which is not a shard of dbq.shards (shards: [a, b])",
            "dbq.groups.both.queues=on-a,on-b | dbq.groups.both.queues: 'on-a' lives on shard a and 'on-b' on shard b",
            "dbq.log.topics.orders.partitions=2 | dbq.log.topics: topics (and TopicListener beans) are not supported",
            "dbq.shards.c.username=nobody | dbq.shards.c.url is required"})
    void aShardMisconfigurationFailsStartUpNamingTheProperty(String property, String message) {
        runner(serverB, uniqueTable()).withPropertyValues(property).run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure())).contains(message);
            assertThat(new InvalidQueuePropertyFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
                    .contains(message);
        });
    }

    /**
     * A start that fails after the shards' doors were built (here at the health indicator, on a queue id it does not
     * know) closes them: only a context's close did, and their maintenance threads ran on against closed pools.
     */
    @Test
    void aStartThatFailsClosesTheShardsDoors() throws InterruptedException {
        long before = maintenanceThreads();
        runner(serverB, uniqueTable()).withPropertyValues("dbq.health.queues.typo.max-dead-letters=1")
                .run(context -> assertThat(context).hasFailed());
        // at most as many as before: an earlier test's door may still be ending its own
        await(Duration.ofSeconds(20), "the shards' maintenance threads gone", () -> maintenanceThreads() <= before);
    }

    private static long maintenanceThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("dbq-maintenance"))
                .count();
    }

    @Test
    void aShardWithoutShardsFailsStartUpNamingTheProperty() {
        StarterTestSupport.runner().withPropertyValues("dbq.queues.q.table=" + uniqueTable(),
                "dbq.queues.q.layout=dbq_seq", "dbq.queues.q.shard=a", "dbq.initialize-schema=always").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("dbq.queues.q.shard is set, but no shards are configured");
        });
    }

    private static Throwable catchThrowable(Runnable run) {
        try {
            run.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("expected a failure");
    }

    private static DataSource dataSourceA() {
        return dataSource(urlA, PostgresServer.shared());
    }

    private static DataSource dataSourceB() {
        return dataSource(serverB.jdbcUrl(), serverB);
    }

    private static DataSource dataSource(String url, PostgresServer server) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(url);
        ds.setUser(server.user());
        ds.setPassword(server.password());
        return ds;
    }

    private static long count(DataSource dataSource, String table, String queue) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table + " WHERE queue_name = '" + queue + "'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
