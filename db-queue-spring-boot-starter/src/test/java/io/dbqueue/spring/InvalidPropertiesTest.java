package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** Every bad value stops the application at start-up with a message naming the property. */
class InvalidPropertiesTest {

    private static final String TABLE = createTable(Layout.DBQ_SEQ);

    private static void assertFailsWith(ApplicationContextRunner runner, String expected) {
        runner.run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure())).contains(expected);
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "batch-size=0 | dbq.queues.main.batch-size must be between 1 and 10000, was 0",
            "coalesce.max-batch=0 | dbq.queues.main.coalesce.max-batch must be between 1 and 100000, was 0",
            "coalesce.linger=-1ms | dbq.queues.main.coalesce.linger must be zero or positive, was PT-0.001S",
            "batch-size=10001 | dbq.queues.main.batch-size must be between 1 and 10000, was 10001",
            "threads=0 | dbq.queues.main.threads must be between 1 and 1000, was 0",
            "mode=sometimes | Failed to bind properties under 'dbq.queues.main.mode' to io.dbqueue.spring.QueueMode",
            "mode=wrap-in-transaction | Failed to bind properties under 'dbq.queues.main.mode' to io.dbqueue.spring.QueueMode",
            "layout=queue_tasks_9 | Failed to bind properties under 'dbq.queues.main.layout' to io.dbqueue.spring.QueueLayout",
            "lease-timeout=0s | dbq.queues.main.lease-timeout must be positive, was PT0S",
            "between-task-timeout=-1ms | dbq.queues.main.between-task-timeout must be zero or positive",
            "no-task-timeout=-1ms | dbq.queues.main.no-task-timeout must be zero or positive",
            "fatal-crash-timeout=-1s | dbq.queues.main.fatal-crash-timeout must be zero or positive",
            "retry.type=random | Failed to bind properties under 'dbq.queues.main.retry.type'",
            "retry.max-delay=100ms | dbq.queues.main.retry.max-delay must be at least the interval, was PT0.1S",
            "retry.interval=0s | dbq.queues.main.retry.interval must be positive, was PT0S",
            "retry.max-attempts=0 | dbq.queues.main.retry.max-attempts must be at least 1, was 0",
            "retry.jitter=1.5 | dbq.queues.main.retry.jitter must be between 0 and 1, was 1.5",
            "vacuum.claimed-tasks=-1 | dbq.queues.main.vacuum.claimed-tasks must be 0 (off) or more, was -1",
            "vacuum.min-interval=-1s | dbq.queues.main.vacuum.min-interval must not be negative, was PT-1S",
            "queue-name=no spaces | dbq.queues.main.queue-name must be a queue name of 1 to 128 characters",
            "wakeup=push | Failed to bind properties under 'dbq.queues.main.wakeup' to io.dbqueue.queue.Wakeup",
            "max-batches-in-flight=4 | dbq.queues.main.max-batches-in-flight applies only with an executor",
            "rate-limit.per-second=-1 | dbq.queues.main.rate-limit.per-second must be between 0 and 1000000, was -1.0",
            "max-in-flight=-1 | dbq.queues.main.max-in-flight must be between 0 and 1000000, was -1"})
    void aBadQueueValueNamesItsProperty(String property, String expected) {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.main." + property), expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "executor=pool | mode=exactly-once | dbq.queues.main.executor cannot be used with mode exactly-once",
            "max-in-flight=4 | mode=exactly-once | dbq.queues.main.rate-limit, .max-in-flight and .per-key cannot be used with mode exactly-once",
            "per-key.header=customer | per-key.max-in-flight=0 | dbq.queues.main.per-key.header must be given exactly when maxPerKey is above 0",
            "rate-limit.per-second=10 | rate-limit.burst=0 | dbq.queues.main.rate-limit.burst must be between 1 and 1000000, was 0",
            "mode=external-executor | max-batches-in-flight=0 | dbq.queues.main.max-batches-in-flight must be at least 1, was 0"})
    void aBadCombinationNamesItsProperty(String first, String second, String expected) {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.main." + first, "dbq.queues.main." + second), expected);
    }

    @Test
    void startUpFailureIsReportedWithoutAStackTrace() {
        runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.main.batch-size=0").run(context -> {
            FailureAnalysis analysis = new InvalidQueuePropertyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo(
                    "Invalid db-queue configuration: dbq.queues.main.batch-size must be between 1 and 10000, was 0");
            assertThat(analysis.getAction()).contains("Correct the dbq.* property");
        });
    }

    /** Topics no other test creates, so that the values of a new topic are checked. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "never_made_1.retention-max-age=0s | dbq.log.topics.never_made_1.retention-max-age must be positive or null, was PT0S",
            "never_made_2.partitions=0 | dbq.log.topics.never_made_2.partitions must be 1 to",
            // a group's values fail at start-up, auto-startup or not, naming the property (they failed as the members
            // started, with the core's own words; members=0 ran none without a word)
            "never_made_4.groups.g.batch-size=0 | dbq.log.topics.never_made_4.groups.g.batch-size must be 1 to 10000, was 0",
            "never_made_4.groups.g.lease=100ms | dbq.log.topics.never_made_4.groups.g.lease must be at least 300 ms",
            "never_made_4.groups.g.members=0 | dbq.log.topics.never_made_4.groups.g.members must be at least 1, was 0"})
    void aBadTopicValueNamesItsProperty(String property, String expected) {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                "dbq.auto-startup=false", "dbq.log.topics." + property), expected);
    }

    @Test
    void notifyIntervalMustNotBeNegative() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                "dbq.notify-interval=-1ms"), "dbq.notify-interval must be zero or positive, was PT-0.001S");
    }

    @Test
    void tableIsRequired() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.threads=2"), "dbq.queues.main.table is required");
    }

    @Test
    void tableMustBeAnIdentifier() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=Orders; drop table x",
                "dbq.queues.main.layout=dbq_seq"), "dbq.queues.main.table must be a table name of 1 to 48 characters");
    }

    @Test
    void layoutIsRequiredForATableNotNamedAfterAPreset() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE),
                "dbq.queues.main.layout must be given when the table '" + TABLE + "' is not named after a preset");
    }

    @Test
    void aMissingTableFailsUnlessTablesAreCreated() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=no_such_table",
                "dbq.queues.main.layout=dbq_seq"), "dbq.queues.main.table: table 'no_such_table' does not exist");
    }

    /** The door's own checks, reported under the property. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dbq.shutdown-timeout=-1s | dbq.shutdown-timeout must be zero or positive, was PT-1S",
            "dbq.idempotency-key-retention=0s | dbq.idempotency-key-retention must be positive, was PT0S",
            "dbq.log.notify-interval=-1ms | dbq.log.notify-interval must be zero or positive, was PT-0.001S",
            "dbq.log.topics.never_made_3.retention-interval=0s | dbq.log.topics.never_made_3.retention-interval must be positive, was PT0S"})
    void aBadValueOfTheDoorNamesItsProperty(String property, String expected) {
        assertFailsWith(runner().withPropertyValues(property, "dbq.log.topics.never_made_3.retention-drop-consumed=true"),
                expected);
    }

    @Test
    void twoIdsMayNotShareAQueue() {
        assertFailsWith(runner().withPropertyValues("dbq.queues.a.table=" + TABLE, "dbq.queues.a.layout=dbq_seq",
                "dbq.queues.a.queue-name=same", "dbq.queues.b.table=" + TABLE, "dbq.queues.b.layout=dbq_seq",
                "dbq.queues.b.queue-name=same"), "dbq.queues.a and dbq.queues.b both name queue " + TABLE + "/same");
    }

    /** Also when the workers are not started with the context: the mistake is not left for a later start(). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aConsumerOfAnUnconfiguredQueueFailsStartUp(boolean autoStartup) {
        assertFailsWith(runner().withPropertyValues("dbq.queues.main.table=" + TABLE, "dbq.queues.main.layout=dbq_seq",
                                "dbq.auto-startup=" + autoStartup)
                        .withBean(QueueConsumer.class, () -> new QueueConsumer() {
                            @Override
                            public String queueId() {
                                return "mian";
                            }

                            @Override
                            public void handle(TaskBatch batch) {
                            }
                        }),
                "names queue id 'mian', which is not configured: add dbq.queues.mian.table (configured ids: [main])");
    }
}
