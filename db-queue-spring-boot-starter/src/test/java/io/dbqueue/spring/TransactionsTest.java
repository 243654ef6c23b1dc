package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.spring.log.DbQueueTopics;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.listener.DbQueueListener;
import io.dbqueue.spring.schedule.DbQueueScheduleAutoConfiguration;
import io.dbqueue.spring.schedule.DbQueueScheduled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.annotation.Transactional;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.execute;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static io.dbqueue.spring.StarterTestSupport.uniqueTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transactional outbox the Spring way: an enqueue (and a topic's send) inside a
 * {@code @Transactional} method exists if and only if the method commits, and an exactly-once handler's {@code JdbcTemplate} and
 * {@code @Transactional} work commits or rolls back with the batch's claim.
 */
class TransactionsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static ApplicationContextRunner transactional(String table, String... properties) {
        return runner().withConfiguration(AutoConfigurations.of(DataSourceTransactionManagerAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class, TransactionAutoConfiguration.class))
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .withPropertyValues(properties);
    }

    /** A queue "main" exactly once, a task a batch, retried in an hour; its failed attempts' payloads go to {@code failed}. */
    private static ApplicationContextRunner exactlyOnce(String table, Set<String> failed) {
        QueueListener failures = new QueueListener() {
            @Override
            public void failed(QueueLocation q, Task task, String error, boolean deadLettered) {
                failed.add(task.payload());
            }
        };
        return transactional(table, "dbq.queues.main.mode=exactly-once", "dbq.queues.main.batch-size=1",
                "dbq.queues.main.retry.interval=1h").withBean(QueueListener.class, () -> failures);
    }

    /** A fresh table of the handlers' effects: a payload and how it was written. */
    private static String effectsTable() {
        String effects = uniqueTable();
        execute("CREATE TABLE " + effects + " (payload text, via text)");
        return effects;
    }

    /** Places an order, enqueues its task and sends its event in one transaction; {@code fail} rolls all back. */
    static class Orders {
        private final JdbcTemplate jdbc;
        private final DbQueues queues;
        private final DbQueueTopics topics;
        private final String table;

        public Orders(JdbcTemplate jdbc, DbQueues queues, DbQueueTopics topics, String table) {
            this.jdbc = jdbc;
            this.queues = queues;
            this.topics = topics;
            this.table = table;
        }

        @Transactional
        public void place(String order, boolean fail) {
            jdbc.update("INSERT INTO " + table + " (name) VALUES (?)", order);
            queues.producer("main").enqueue("ship " + order);
            topics.producer(table).send(order, "placed " + order);
            if (fail) {
                throw new IllegalStateException("payment refused for " + order);
            }
        }
    }

    /**
     * Also when the application's DataSource is a {@link TransactionAwareDataSourceProxy}, whose
     * connections would pass a change of auto-commit on to the transaction's connection and commit it early.
     */
    @ParameterizedTest(name = "transaction-aware proxy={0}")
    @ValueSource(booleans = {false, true})
    void aTaskEnqueuedInARolledBackTransactionalMethodDoesNotExist(boolean proxy) {
        String queue = createTable(Layout.DBQ_SEQ);
        String orders = uniqueTable();
        execute("CREATE TABLE " + orders + " (name text PRIMARY KEY)");
        ApplicationContextRunner runner = transactional(queue, "dbq.log.topics." + orders + ".partitions=2");
        if (proxy) {
            runner = runner.withBean("dataSource", DataSource.class,
                    () -> new TransactionAwareDataSourceProxy(StarterTestSupport.dataSource()));
        }
        AtomicInteger reported = new AtomicInteger();
        QueueListener enqueued = new QueueListener() {
            @Override
            public void enqueued(QueueLocation q, int count) {
                reported.addAndGet(count);
            }
        };
        runner.withBean(Orders.class, orders) // the JdbcTemplate and DbQueues autowired
                .withBean(QueueListener.class, () -> enqueued)
                .run(context -> {
                    Orders service = context.getBean(Orders.class);
                    service.place("a", false);
                    assertThatThrownBy(() -> service.place("b", true)).hasMessage("payment refused for b");
                    assertThat(count("SELECT count(*) FROM " + orders)).isEqualTo(1);
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'ship a'")).isEqualTo(1);
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'ship b'"))
                            .as("the task of the rolled-back order").isZero();
                    assertThat(count("SELECT sum(next_offset) FROM " + orders + "_partitions"))
                            .as("the event of the placed order only: the rolled-back send left no offset").isEqualTo(1);
                    assertThat(reported).as("listeners (wakeups, metrics) hear of committed tasks only").hasValue(1);
                    // outside a transaction an enqueue commits on its own, as before
                    context.getBean(DbQueues.class).producer("main").enqueue("alone");
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'alone'")).isEqualTo(1);
                });
    }

    /** Records an effect per task with JdbcTemplate and through a @Transactional service; fails "fail" tasks after. */
    static class EffectsConsumer implements QueueConsumer {
        private final JdbcTemplate jdbc;
        private final Effects effects;
        private final String table;

        public EffectsConsumer(JdbcTemplate jdbc, Effects effects, String table) {
            this.jdbc = jdbc;
            this.effects = effects;
            this.table = table;
        }

        @Override
        public String queueId() {
            return "main";
        }

        @Override
        public void handle(TaskBatch batch) {
            for (Task task : batch.tasks()) {
                jdbc.update("INSERT INTO " + table + " (payload, via) VALUES (?, 'jdbc-template')", task.payload());
                effects.record(task.payload());
                if (task.payload().startsWith("fail")) {
                    throw new IllegalStateException("handler failed on " + task.payload());
                }
                if (task.payload().startsWith("swallow")) {
                    try {
                        effects.recordThenFail(task.payload());
                    } catch (IllegalStateException e) {
                        // swallowed: the @Transactional method has marked the batch's transaction rollback-only
                    }
                }
            }
        }
    }

    /** A @Transactional service the handler calls: it joins the batch's transaction (REQUIRED). */
    static class Effects {
        private final JdbcTemplate jdbc;
        private final String table;

        public Effects(JdbcTemplate jdbc, String table) {
            this.jdbc = jdbc;
            this.table = table;
        }

        @Transactional
        public void record(String payload) {
            jdbc.update("INSERT INTO " + table + " (payload, via) VALUES (?, 'transactional')", payload);
        }

        @Transactional
        public void recordThenFail(String payload) {
            record(payload);
            throw new IllegalStateException("refused " + payload);
        }
    }

    /** A listener method that records an effect, then fails "fail" messages with a failure it dead-letters. */
    record EffectsListener(JdbcTemplate jdbc, String table) {

        @DbQueueListener(queue = "main", deadLetterOn = IllegalArgumentException.class)
        public void on(String message) {
            jdbc.update("INSERT INTO " + table + " (payload, via) VALUES (?, 'listener')", message);
            if (message.startsWith("fail")) {
                throw new IllegalArgumentException("listener failed on " + message);
            }
        }
    }

    /** A scheduled method that records an effect, then fails. */
    record FailingJob(JdbcTemplate jdbc, String table) {

        @DbQueueScheduled(interval = "1h", queue = "main")
        public void run() {
            jdbc.update("INSERT INTO " + table + " (payload, via) VALUES ('tick', 'job')");
            throw new IllegalStateException("job failed");
        }
    }

    /**
     * Exactly once, a {@code @DbQueueScheduled} method's failure rolls its writes back with the batch, as a listener
     * method's does: its tick is retried, and what the failed attempt wrote is not committed.
     */
    @Test
    void anExactlyOnceScheduledMethodsWritesRollBackWhenItThrows() {
        String queue = createTable(Layout.DBQ_SEQ);
        String effects = effectsTable();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        exactlyOnce(queue, failed)
                .withConfiguration(AutoConfigurations.of(DbQueueScheduleAutoConfiguration.class))
                .withBean(FailingJob.class, effects)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(DbQueue.class).schedules().triggerNow("FailingJob.run");
                    await(TIMEOUT, "the tick's failed attempt recorded", () -> failed.contains("FailingJob.run"));
                    assertThat(count("SELECT count(*) FROM " + effects)).as("no effect of the failed method").isZero();
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'FailingJob.run'"))
                            .as("the tick waits for its retry").isPositive();
                });
    }

    /**
     * Exactly once, a listener method's failure rolls its writes back with the batch, as a consumer bean's does; a
     * failure of a deadLetterOn type then sends its task to the dead letters, without its writes.
     */
    @Test
    void anExactlyOnceListenerMethodsWritesRollBackWhenItThrows() {
        String queue = createTable(Layout.DBQ_SEQ);
        String effects = effectsTable();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        exactlyOnce(queue, failed)
                .withBean(EffectsListener.class, effects)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    okAndFailed(queues, queue, failed);
                    assertThat(count("SELECT count(*) FROM " + effects + " WHERE payload = 'ok-1'")).isEqualTo(1);
                    assertThat(count("SELECT count(*) FROM " + effects + " WHERE payload = 'fail-1'"))
                            .as("no effect of the failed method").isZero();
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'fail-1'")).isZero();
                    assertThat(queues.deadLetters("main").list(0, 10)).singleElement()
                            .satisfies(dead -> assertThat(dead.lastError()).isEqualTo(
                                    "IllegalArgumentException: listener failed on fail-1"));
                });
    }

    @Test
    void anExactlyOnceHandlersSpringWorkCommitsAndRollsBackWithTheClaim() {
        String queue = createTable(Layout.DBQ_SEQ);
        String effects = effectsTable();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        exactlyOnce(queue, failed)
                .withBean(Effects.class, effects)
                .withBean(EffectsConsumer.class, effects)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    okAndFailed(queues, queue, failed, "swallow-1");
                    assertThat(count("SELECT count(*) FROM " + effects + " WHERE payload = 'ok-1'"))
                            .as("both effects of the finished task, committed with its claim").isEqualTo(2);
                    assertThat(count("SELECT count(*) FROM " + effects + " WHERE payload = 'fail-1'"))
                            .as("no effect of the failed handler").isZero();
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'fail-1'"))
                            .as("the failed task is back in the queue for its retry").isEqualTo(1);
                    // a handler that swallows the failure of its own @Transactional code: the transaction can
                    // only roll back, so the attempt fails (not claimed again forever, not reported finished)
                    await(TIMEOUT, "swallow-1's failed attempt recorded", () -> failed.contains("swallow-1"));
                    assertThat(count("SELECT count(*) FROM " + effects + " WHERE payload = 'swallow-1'")).isZero();
                    assertThat(count("SELECT count(*) FROM " + queue + " WHERE payload = 'swallow-1'")).isEqualTo(1);
                });
    }

    /**
     * Enqueues ok-1, fail-1 and then {@code more} on {@code queue}, and waits until ok-1 has finished and fail-1's
     * attempt has failed.
     */
    private static void okAndFailed(DbQueues queues, String queue, Set<String> failed, String... more)
            throws InterruptedException {
        for (String payload : Stream.concat(Stream.of("ok-1", "fail-1"), Stream.of(more)).toList()) {
            queues.producer("main").enqueue(payload);
        }
        await(TIMEOUT, "ok-1 finished", () -> count("SELECT count(*) FROM " + queue + " WHERE payload = 'ok-1'") == 0);
        await(TIMEOUT, "fail-1's failed attempt recorded", () -> failed.contains("fail-1"));
    }
}
