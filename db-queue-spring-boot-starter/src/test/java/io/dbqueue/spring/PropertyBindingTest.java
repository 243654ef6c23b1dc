package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLimits;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration;

import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class PropertyBindingTest {

    /** The machine's PostgreSQL, older than 18 here and in CI. */
    private static final String OLDER_SERVER = "jdbc:postgresql://127.0.0.1:5432/postgres";

    @Test
    void defaultsAreTheExperimentsSettings() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    QueueConfig main = context.getBean(DbQueueProperties.class).configs().get("main");
                    QueueConfig expected = QueueConfig.of(new QueueTable(table, Layout.DBQ_SEQ).queue("main"));
                    assertThat(main).isEqualTo(expected);
                    assertThat(main.poll()).isEqualTo(PollSettings.DEFAULT);
                    assertThat(main.retry()).isEqualTo(RetryPolicy.DEFAULT);
                    assertThat(context.getBean(DbQueueProperties.class).queues().get("main").virtualThreads())
                            .as("unset: as spring.threads.virtual.enabled").isNull();
                    assertThat(context.getBean(DbQueues.class).location("main").queueName()).isEqualTo("main");
                });
    }

    @Test
    void everyPropertyReachesTheQueueConfig() {
        String table = createTable(Layout.QUEUE_TASKS_2);
        runner().withPropertyValues(
                "dbq.queues.orders.table=" + table,
                "dbq.queues.orders.layout=queue_tasks_2",
                "dbq.queues.orders.queue-name=orders.v2",
                "dbq.queues.orders.mode=exactly-once",
                "dbq.queues.orders.threads=3",
                "dbq.queues.orders.batch-size=50",
                "dbq.queues.orders.between-task-timeout=20ms",
                "dbq.queues.orders.no-task-timeout=250ms",
                "dbq.queues.orders.fatal-crash-timeout=2s",
                "dbq.queues.orders.lease-timeout=30s",
                "dbq.queues.orders.retry.type=linear",
                "dbq.queues.orders.retry.interval=500ms",
                "dbq.queues.orders.retry.max-attempts=4",
                "dbq.queues.orders.retry.jitter=0.25",
                "dbq.queues.orders.vacuum.claimed-tasks=500",
                "dbq.queues.orders.vacuum.min-interval=5s",
                "dbq.queues.orders.virtual-threads=true").run(context -> {
            DbQueueProperties properties = context.getBean(DbQueueProperties.class);
            QueueConfig config = properties.configs().get("orders");
            assertThat(config.location().table().name()).isEqualTo(table);
            assertThat(config.location().table().layout()).isEqualTo(Layout.QUEUE_TASKS_2);
            assertThat(config.location().queueName()).isEqualTo("orders.v2");
            assertThat(config.mode()).isEqualTo(DeliveryMode.EXACTLY_ONCE);
            assertThat(config.threads()).isEqualTo(3);
            assertThat(config.poll()).isEqualTo(new PollSettings(50, Duration.ofMillis(20), Duration.ofMillis(250),
                    Duration.ofSeconds(2)));
            assertThat(config.leaseTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(config.retry()).isEqualTo(RetryPolicy.of(RetryType.LINEAR, Duration.ofMillis(500), 4)
                    .withJitter(0.25));
            assertThat(properties.queues().get("orders").vacuumPolicy("orders"))
                    .isEqualTo(new VacuumPolicy(500, Duration.ofSeconds(5)));
            assertThat(properties.queues().get("orders").virtualThreads()).isTrue();
        });
    }

    @Test
    void limitsReachTheQueueConfig() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.main.rate-limit.per-second=50", "dbq.queues.main.rate-limit.burst=5",
                "dbq.queues.main.max-in-flight=8",
                "dbq.queues.main.per-key.header=customer", "dbq.queues.main.per-key.max-in-flight=2",
                "dbq.queues.other.table=" + table, "dbq.queues.other.layout=dbq_seq",
                "dbq.queues.other.rate-limit.per-second=2.5").run(context -> {
            Map<String, QueueConfig> configs = context.getBean(DbQueueProperties.class).configs();
            assertThat(configs.get("main").limits()).isEqualTo(new QueueLimits(50, 5, 8, "customer", 2));
            assertThat(configs.get("other").limits()).as("burst unset: a second's worth")
                    .isEqualTo(QueueLimits.rate(2.5, 3));
        });
    }

    /** A schema from before limits: a limited queue fails the start naming the tables, an unlimited one starts. */
    @Test
    void withoutAMigrationMissingLimitTablesFailTheStartOfALimitedQueue() {
        String table = createTable(Layout.DBQ_SEQ);
        StarterTestSupport.execute("DROP TABLE " + table + "_limits, " + table + "_in_flight");
        runner().withPropertyValues("dbq.initialize-schema=never", "dbq.queues.main.table=" + table,
                "dbq.queues.main.layout=dbq_seq", "dbq.queues.main.max-in-flight=2").run(context ->
                assertThat(context).getFailure().hasRootCauseMessage("dbq.queues.main: its rate-limit or max-in-flight"
                        + " needs the tables '" + table + "_limits' and '" + table + "_in_flight'; create them with their"
                        + " CREATE TABLE IF NOT EXISTS statements from io/dbqueue/sql/dbq_seq.sql in a migration, or set"
                        + " dbq.initialize-schema=always"));
        runner().withPropertyValues("dbq.initialize-schema=never", "dbq.queues.main.table=" + table,
                "dbq.queues.main.layout=dbq_seq").run(context -> assertThat(context).hasNotFailed());
    }

    /** A schema from before per-key limits: a queue with one fails the start with the migration; after it, it starts. */
    @Test
    void withoutTheMigrationAPerKeyLimitFailsTheStartNamingTheColumnAndTheStatements() {
        String table = createTable(Layout.DBQ_SEQ);
        StarterTestSupport.execute("ALTER TABLE " + table + "_in_flight DROP COLUMN concurrency_key");
        String[] perKey = {"dbq.initialize-schema=never", "dbq.queues.main.table=" + table,
                "dbq.queues.main.layout=dbq_seq", "dbq.queues.main.per-key.header=customer",
                "dbq.queues.main.per-key.max-in-flight=1"};
        runner().withPropertyValues(perKey).run(context -> assertThat(context).getFailure().rootCause()
                .hasMessageStartingWith("dbq.queues.main.per-key.max-in-flight: needs the column concurrency_key of '"
                        + table + "_in_flight'")
                .hasMessageContaining("ALTER TABLE " + table + "_in_flight ADD COLUMN IF NOT EXISTS concurrency_key text;"));
        StarterTestSupport.execute("ALTER TABLE " + table + "_in_flight ADD COLUMN concurrency_key text");
        runner().withPropertyValues(perKey).run(context -> assertThat(context).hasNotFailed());
    }

    /**
     * A layout the server is too old for ({@code dbq_seq_priority_key} needs PostgreSQL 18) fails the start under the
     * layout's property, naming the layout to use. Needs a server before 18: the machine's PostgreSQL at
     * 127.0.0.1:5432 (15 here and in CI), so that is where it runs.
     */
    @Test
    void aLayoutTheServerIsTooOldForFailsTheStartUnderTheLayoutProperty() throws SQLException {
        PGSimpleDataSource older = new PGSimpleDataSource();
        older.setURL(OLDER_SERVER);
        older.setUser("postgres");
        int version;
        try (Connection c = older.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_setting('server_version_num')::int")) {
            rs.next();
            version = rs.getInt(1);
        } catch (SQLException e) {
            Assumptions.abort("no PostgreSQL at " + OLDER_SERVER + ": " + e.getMessage());
            return;
        }
        Assumptions.assumeTrue(version < Layout.DBQ_SEQ_PRIORITY_KEY.minimumServerVersion(), "the server at " + OLDER_SERVER + " is " + version + ", not before 18");
        runner().withPropertyValues("spring.datasource.url=" + OLDER_SERVER, "spring.datasource.username=postgres",
                "spring.datasource.password=", "dbq.initialize-schema=always",
                "dbq.queues.main.table=" + StarterTestSupport.uniqueTable(), "dbq.queues.main.layout=dbq_seq_priority_key")
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("dbq.queues.main.layout needs"
                        + " PostgreSQL 18 or later").hasStackTraceContaining("use dbq_seq_priority "));
    }

    @ParameterizedTest
    @CsvSource({"at-least-once, AT_LEAST_ONCE", "exactly-once, EXACTLY_ONCE", "at-most-once, AT_MOST_ONCE",
            "AT_LEAST_ONCE, AT_LEAST_ONCE", "external-executor, AT_LEAST_ONCE"})
    void modeNamesADeliveryMode(String value, DeliveryMode mode) {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.main.mode=" + value).run(context ->
                assertThat(context.getBean(DbQueueProperties.class).configs().get("main").mode()).isEqualTo(mode));
    }

    @Test
    void layoutDefaultsToTheTableWhenItIsAPresetName() {
        runner().withPropertyValues("dbq.initialize-schema=always", "dbq.queues.main.table=queue_tasks_3").run(context ->
                assertThat(context.getBean(DbQueues.class).location("main").table().layout())
                        .isEqualTo(Layout.QUEUE_TASKS_3));
    }

    @Test
    void initializeSchemaAlwaysCreatesAMissingTable() {
        String table = StarterTestSupport.uniqueTable();
        runner().withPropertyValues("dbq.initialize-schema=always", "dbq.queues.main.table=" + table,
                "dbq.queues.main.layout=queue_tasks_5").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(StarterTestSupport.count("SELECT count(*) FROM pg_inherits WHERE inhparent = '" + table
                    + "'::regclass")).isEqualTo(8);
            assertThat(StarterTestSupport.count("SELECT count(*) FROM " + table + "_dead")).isZero();
        });
    }

    /**
     * With initialize-schema=never, a table a migration creates is there when the starter checks it:
     * its beans depend on database initialization (here spring.sql.init running the layout's DDL
     * from the classpath; Flyway and Liquibase are ordered the same way).
     */
    @Test
    void aMigrationThatCreatesTheQueueTableRunsBeforeTheStarterChecksIt() {
        StarterTestSupport.execute("DROP TABLE IF EXISTS queue_tasks_6, queue_tasks_6_dead, queue_tasks_6_keys CASCADE");
        runner().withConfiguration(AutoConfigurations.of(DataSourceInitializationAutoConfiguration.class))
                .withPropertyValues("spring.sql.init.mode=always",
                        "spring.sql.init.schema-locations=classpath:io/dbqueue/sql/queue_tasks_6.sql",
                        "dbq.initialize-schema=never", "dbq.queues.main.table=queue_tasks_6")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(DbQueues.class).producer("main").enqueue("migrated");
                    assertThat(StarterTestSupport.count("SELECT count(*) FROM queue_tasks_6")).isEqualTo(1);
                });
        StarterTestSupport.execute("DROP TABLE queue_tasks_6, queue_tasks_6_dead, queue_tasks_6_keys CASCADE");
    }

    @Test
    void withoutAMigrationAMissingTableFailsTheStartNamingTheFix() {
        String table = StarterTestSupport.uniqueTable();
        runner().withPropertyValues("dbq.initialize-schema=never", "dbq.queues.main.table=" + table,
                "dbq.queues.main.layout=dbq_seq").run(context -> assertThat(context).getFailure()
                .hasRootCauseMessage("dbq.queues.main.table: table '" + table + "' does not exist (or its dead-letter"
                        + " table '" + table + "_dead' does not); create them with io/dbqueue/sql/dbq_seq.sql (on the"
                        + " classpath; sql/ in the source) in a migration, or set dbq.initialize-schema=always"));
    }
}
