package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** dbq.groups: queues of one table consumed fairly by one consumer. */
class QueueGroupStarterTest {

    private static final String TABLE = createTable(Layout.DBQ_SEQ);
    private static final String OTHER_TABLE = createTable(Layout.DBQ_SEQ);

    /**
     * Group "tenants" of queues tenant-a and tenant-b on a fresh table, consumed by {@code consumer}
     * once the test starts the workers; claims of 1 task, the workers as {@code workers} says.
     */
    private static ApplicationContextRunner tenants(RecordingConsumer consumer, String... workers) {
        String table = createTable(Layout.DBQ_SEQ);
        return runner().withPropertyValues("dbq.auto-startup=false",
                        "dbq.queues.tenant-a.table=" + table, "dbq.queues.tenant-a.layout=dbq_seq",
                        "dbq.queues.tenant-a.batch-size=1", "dbq.queues.tenant-a.no-task-timeout=10ms",
                        "dbq.queues.tenant-b.table=" + table, "dbq.queues.tenant-b.layout=dbq_seq",
                        "dbq.groups.tenants.queues=tenant-a,tenant-b")
                .withPropertyValues(workers)
                .withBean(RecordingConsumer.class, () -> consumer);
    }

    @Test
    void aGroupsConsumerServesAQuietQueueWhileAnotherHasABacklog() {
        // Tenant-a's tasks are held until tenant-b's has been handled, and tenant-b's is enqueued once
        // one of them is held. With at most one worker on tenant-a, the other worker cannot take a
        // second one and takes tenant-b's task, handled first; let onto tenant-a, it would be held
        // too, and tenant-b's task would wait until the holds give up.
        CountDownLatch backlogHeld = new CountDownLatch(1);
        CountDownLatch quietQueueServed = new CountDownLatch(1);
        RecordingConsumer consumer = new RecordingConsumer("tenants") {
            @Override
            public void handle(TaskBatch batch) throws Exception {
                boolean quiet = batch.tasks().get(0).payload().equals("b");
                if (!quiet) {
                    backlogHeld.countDown();
                    quietQueueServed.await(20, TimeUnit.SECONDS);
                }
                super.handle(batch);
                if (quiet) {
                    quietQueueServed.countDown();
                }
            }
        };
        tenants(consumer, "dbq.queues.tenant-a.threads=2", "dbq.groups.tenants.max-workers-per-queue=1")
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("tenant-a").enqueueAll(IntStream.range(0, 40).mapToObj(i -> "a" + i).toList());
                    context.getBean(QueueConsumerWorkers.class).start();
                    assertThat(backlogHeld.await(30, TimeUnit.SECONDS)).as("a tenant-a task handled").isTrue();
                    queues.producer("tenant-b").enqueue("b");

                    consumer.awaitHandled(41, Duration.ofSeconds(60));
                    List<String> handled = consumer.handled();
                    assertThat(handled.get(0)).as("handled: %s", handled).isEqualTo("b");
                    QueueWorkers group = queues.workers("tenants").orElseThrow();
                    assertThat(queues.workers("tenant-b")).as("a member's workers are its group's").containsSame(group);
                });
    }

    @Test
    void oneWorkerTakesTheGroupsQueuesInTurn() {
        RecordingConsumer consumer = new RecordingConsumer("tenants");
        tenants(consumer).run(context -> {
            DbQueues queues = context.getBean(DbQueues.class);
            queues.producer("tenant-a").enqueueAll(IntStream.range(0, 10).mapToObj(i -> "a" + i).toList());
            queues.producer("tenant-b").enqueueAll(List.of("b0", "b1"));
            context.getBean(QueueConsumerWorkers.class).start();

            consumer.awaitHandled(12, Duration.ofSeconds(30));
            assertThat(consumer.handled()).startsWith("a0", "b0", "a1", "b1", "a2");
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "queues=a,nope | dbq.groups.g.queues names 'nope', which is not configured under dbq.queues",
            "queues=a,other | dbq.groups.g.queues must all be on one table",
            "max-workers-per-queue=0 | dbq.groups.g.max-workers-per-queue must be at least 1, was 0",
            "queues= | dbq.groups.g.queues must name at least one queue of dbq.queues",
            "queues=a,a | dbq.groups.g.queues names 'a' twice",
            "queues=a,notified | dbq.groups.g.queues: 'notified' has wakeup notify and 'a' poll; a group's queues wake alike",
            "queues=a,executed | dbq.groups.g.queues: 'executed' names an executor"})
    void aBadGroupNamesItsProperty(String property, String expected) {
        runner().withPropertyValues("dbq.queues.a.table=" + TABLE, "dbq.queues.a.layout=dbq_seq",
                        "dbq.queues.other.table=" + OTHER_TABLE, "dbq.queues.other.layout=dbq_seq",
                        "dbq.queues.notified.table=" + TABLE, "dbq.queues.notified.layout=dbq_seq",
                        "dbq.queues.notified.wakeup=notify",
                        "dbq.queues.executed.table=" + TABLE, "dbq.queues.executed.layout=dbq_seq",
                        "dbq.queues.executed.executor=applicationTaskExecutor",
                        "dbq.groups.g.queues=a", "dbq.groups.g." + property)
                .run(context -> assertThat(messages(context.getStartupFailure())).contains(expected));
    }

    @Test
    void aGroupMayNotTakeAQueuesIdOrShareAQueueWithAnotherGroup() {
        runner().withPropertyValues("dbq.queues.a.table=" + TABLE, "dbq.queues.a.layout=dbq_seq",
                        "dbq.groups.a.queues=a")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("dbq.groups.a: the id is taken by another queue or group"));
        runner().withPropertyValues("dbq.queues.a.table=" + TABLE, "dbq.queues.a.layout=dbq_seq",
                        "dbq.groups.g.queues=a", "dbq.groups.h.queues=a")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("dbq.groups.h.queues names 'a', which is in group 'g' already"));
    }

    @Test
    void aQueueOfAGroupWithAConsumerMayNotHaveAConsumerOfItsOwn() {
        runner().withPropertyValues("dbq.queues.a.table=" + TABLE, "dbq.queues.a.layout=dbq_seq",
                        "dbq.groups.g.queues=a")
                .withBean("groupConsumer", RecordingConsumer.class, () -> new RecordingConsumer("g"))
                .withBean("queueConsumer", RecordingConsumer.class, () -> new RecordingConsumer("a"))
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("queue id 'a' has a consumer of its own")
                        .contains("take it out of dbq.groups.g.queues or drop one consumer"));
    }
}
