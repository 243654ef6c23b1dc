package io.dbqueue.spring;

import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.RecordBatch;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.log.DbQueueTopics;
import io.dbqueue.spring.log.TopicListenerContainers;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** Closing the application stops claiming, lets batches in progress finish, and releases what cannot finish. */
class GracefulStopTest {

    /** Blocks in its handler until released (or interrupted). */
    static final class BlockingConsumer implements QueueConsumer {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String queueId() {
            return "main";
        }

        @Override
        public void handle(TaskBatch batch) throws InterruptedException {
            started.countDown();
            release.await();
        }
    }

    private static ApplicationContextRunner blockingRunner(String table, String shutdownTimeout,
                                                          BlockingConsumer consumer) {
        return runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                "dbq.shutdown-timeout=" + shutdownTimeout).withBean(BlockingConsumer.class, () -> consumer);
    }

    private static void enqueueAndAwaitHandler(ApplicationContext context, BlockingConsumer consumer, String payload)
            throws InterruptedException {
        context.getBean(DbQueues.class).producer("main").enqueue(payload);
        assertThat(consumer.started.await(20, TimeUnit.SECONDS)).as("handler started").isTrue();
    }

    /**
     * A context stopped and started again (its stop() and start(), as pause and restart, or a checkpoint, do) runs its
     * consumers again: only its close closes the door. The door closed at the stop, and the start failed on it.
     */
    @Test
    void aStoppedContextStartsItsConsumersAgain() {
        String table = createTable(Layout.DBQ_SEQ);
        RecordingConsumer consumer = new RecordingConsumer("main");
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .withBean(RecordingConsumer.class, () -> consumer).run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("main").enqueue("before");
                    consumer.awaitHandled(1, Duration.ofSeconds(20));
                    context.stop();
                    assertThat(queues.workers("main").filter(QueueWorkers::isRunning)).isEmpty();
                    context.start();
                    queues.producer("main").enqueue("after");
                    consumer.awaitHandled(2, Duration.ofSeconds(20));
                    assertThat(consumer.handled()).containsExactly("before", "after");
                });
    }

    @Test
    void aBatchInProgressFinishesBeforeTheContextCloses() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        BlockingConsumer consumer = new BlockingConsumer();
        blockingRunner(table, "20s", consumer).run(context -> {
            enqueueAndAwaitHandler(context, consumer, "slow");
            QueueWorkers workers = context.getBean(DbQueues.class).workers("main").orElseThrow();

            CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);
            await(Duration.ofSeconds(10), "the stop to begin", () -> !workers.isRunning());
            assertThat(closed).isNotDone();
            consumer.release.countDown();
            closed.get(20, TimeUnit.SECONDS);

            assertThat(workers.isRunning()).isFalse();
            assertThat(count("SELECT count(*) FROM " + table)).as("finished task deleted").isZero();
            assertThat(count("SELECT count(*) FROM " + table + "_dead")).isZero();
        });
    }

    @Test
    void aBatchThatOverrunsTheTimeoutIsReleasedForTheNextConsumer() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        BlockingConsumer consumer = new BlockingConsumer();
        blockingRunner(table, "200ms", consumer).run(context -> {
            enqueueAndAwaitHandler(context, consumer, "stuck");

            long start = System.nanoTime();
            context.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));

            assertThat(count("SELECT count(*) FROM " + table + " WHERE payload = 'stuck'"
                    + " AND next_process_at <= now()")).as("released, due again at once").isEqualTo(1);
        });
    }

    /** Reads in group "audit" and blocks in its handler until released (or interrupted), as a {@link BlockingConsumer}. */
    static final class BlockingListener extends LogStarterTest.AuditListener {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        BlockingListener(String topic) {
            super(topic);
        }

        @Override
        public void handle(RecordBatch batch) throws InterruptedException {
            started.countDown();
            release.await();
        }
    }

    /**
     * The queues' workers and the topics' listeners are lifecycles of one phase: they stop together, so that a stop
     * waits {@code dbq.shutdown-timeout} once, not once for each. Stopped one after the other, the listeners would
     * not begin to stop before the queue's batch had finished or the 20 s timeout had passed.
     */
    @Test
    void queueWorkersAndTopicListenersStopTogether() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        String topic = StarterTestSupport.uniqueTable();
        BlockingConsumer consumer = new BlockingConsumer();
        BlockingListener listener = new BlockingListener(topic);
        blockingRunner(table, "20s", consumer)
                .withPropertyValues("dbq.log.topics." + topic + ".partitions=1")
                .withBean(BlockingListener.class, () -> listener)
                .run(context -> {
                    enqueueAndAwaitHandler(context, consumer, "slow");
                    context.getBean(DbQueueTopics.class).producer(topic).send("k", "event");
                    assertThat(listener.started.await(20, TimeUnit.SECONDS)).as("listener started").isTrue();
                    QueueWorkers workers = context.getBean(DbQueues.class).workers("main").orElseThrow();
                    List<GroupConsumer> members = context.getBean(TopicListenerContainers.class).members();

                    CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);
                    await(Duration.ofSeconds(10), "the workers and the listener to stop together",
                            () -> !workers.isRunning() && members.stream().noneMatch(GroupConsumer::isRunning));
                    assertThat(closed).isNotDone();
                    consumer.release.countDown();
                    listener.release.countDown();
                    closed.get(20, TimeUnit.SECONDS);
                    assertThat(count("SELECT count(*) FROM " + table)).as("finished task deleted").isZero();
                });
    }
}
