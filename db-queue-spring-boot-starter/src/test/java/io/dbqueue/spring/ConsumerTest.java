package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ConsumerTest {

    /** On JDK 21+ the second run's handler runs on virtual threads; on older JDKs the starter falls back to platform threads. */
    @ParameterizedTest(name = "virtual-threads={0}")
    @ValueSource(booleans = {false, true})
    void aConsumerBeanReceivesWhatTheProducerEnqueues(boolean virtualThreads) {
        String table = createTable(Layout.QUEUE_TASKS_5);
        Set<Thread> handlerThreads = ConcurrentHashMap.newKeySet();
        RecordingConsumer consumer = new RecordingConsumer("main") {
            @Override
            public void handle(TaskBatch batch) throws Exception {
                handlerThreads.add(Thread.currentThread());
                super.handle(batch);
            }
        };
        AtomicInteger enqueued = new AtomicInteger();
        QueueListener listener = new QueueListener() {
            @Override
            public void enqueued(QueueLocation queue, int count) {
                enqueued.addAndGet(count);
            }
        };
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=queue_tasks_5",
                        "dbq.queues.main.threads=2", "dbq.queues.main.batch-size=5",
                        "dbq.queues.main.virtual-threads=" + virtualThreads)
                .withBean(RecordingConsumer.class, () -> consumer)
                .withBean(QueueListener.class, () -> listener)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    List<String> payloads = IntStream.range(0, 40).mapToObj(i -> "task-" + i).toList();
                    queues.producer("main").enqueueAll(payloads.subList(0, 30));
                    payloads.subList(30, 40).forEach(queues.producer("main")::enqueue);

                    consumer.awaitHandled(40, Duration.ofSeconds(20));
                    assertThat(new ArrayList<>(consumer.handled())).containsExactlyInAnyOrderElementsOf(payloads);
                    assertThat(enqueued).hasValue(40);
                    QueueWorkers workers = queues.workers("main").orElseThrow();
                    assertThat(workers.isRunning()).isTrue();
                    assertThat(workers.config().threads()).isEqualTo(2);
                });
        int jdk = Runtime.version().feature();
        assumeTrue(jdk >= 21 || !virtualThreads, "JDK " + jdk + " has no virtual threads: the workers ran on platform"
                + " threads, as the starter falls back to them; run on JDK 21 or later to check that they are virtual");
        assertThat(handlerThreads).isNotEmpty().allMatch(thread -> isVirtual(thread) == virtualThreads);
    }

    /** {@code Thread.isVirtual()}, called reflectively since the tests are compiled for JDK 17; false before JDK 21. */
    static boolean isVirtual(Thread thread) {
        try {
            return Runtime.version().feature() >= 21 && (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** With wakeup=notify or adaptive, an idle consumer polling every 10 minutes still gets a new task at once. */
    @ParameterizedTest
    @ValueSource(strings = {"notify", "adaptive"})
    void notifyWakeupsReachAnIdleConsumer(String wakeup) {
        String table = createTable(Layout.DBQ_SEQ);
        RecordingConsumer consumer = new RecordingConsumer("main");
        CountDownLatch idle = new CountDownLatch(1);
        QueueListener polls = new QueueListener() {
            @Override
            public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
                if (tasks.isEmpty()) {
                    idle.countDown();
                }
            }
        };
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                        "dbq.queues.main.wakeup=" + wakeup, "dbq.queues.main.no-task-timeout=10m")
                .withBean(RecordingConsumer.class, () -> consumer)
                .withBean(QueueListener.class, () -> polls)
                .run(context -> {
                    assertThat(idle.await(30, TimeUnit.SECONDS)).as("the consumer found nothing and waits").isTrue();
                    context.getBean(DbQueues.class).producer("main").enqueue("wake up");
                    consumer.awaitHandled(1, Duration.ofSeconds(30));
                });
    }

    /** The experiment's external executor: the workers only claim; Spring Boot's task executor handles. */
    @Test
    void externalExecutorModeHandlesBatchesOnTheApplicationTaskExecutor() {
        String table = createTable(Layout.DBQ_SEQ);
        Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
        RecordingConsumer consumer = new RecordingConsumer("main") {
            @Override
            public void handle(TaskBatch batch) throws Exception {
                handlerThreads.add(Thread.currentThread().getName());
                super.handle(batch);
            }
        };
        runner().withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                        "dbq.queues.main.mode=external-executor", "dbq.queues.main.threads=2",
                        "dbq.queues.main.batch-size=5", "spring.task.execution.thread-name-prefix=app-task-")
                .withBean(RecordingConsumer.class, () -> consumer)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    List<String> payloads = IntStream.range(0, 40).mapToObj(i -> "task-" + i).toList();
                    queues.producer("main").enqueueAll(payloads);
                    consumer.awaitHandled(40, Duration.ofSeconds(20));
                    assertThat(new ArrayList<>(consumer.handled())).containsExactlyInAnyOrderElementsOf(payloads);
                    assertThat(handlerThreads).isNotEmpty().allMatch(name -> name.startsWith("app-task-"));
                    StarterTestSupport.await(Duration.ofSeconds(20), "every task acknowledged",
                            () -> queues.monitor("main").depth().tasks() == 0);
                });
    }

    /** Also when the workers are not started with the context: the mistake is not left for a later start(). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anExecutorThatIsNotABeanFailsStartUpWithNoWorkerRunning(boolean autoStartup) {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                        "dbq.queues.main.executor=handlerPool", "dbq.auto-startup=" + autoStartup)
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("main"))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(StarterTestSupport.messages(context.getStartupFailure()))
                            .contains("dbq.queues.main.executor names 'handlerPool', which is not an Executor bean");
                });
    }

    /** Consumes "in" and enqueues each payload to "out": a consumer may inject DbQueues. */
    static final class ForwardingConsumer implements QueueConsumer {
        private final QueueProducer out;

        ForwardingConsumer(DbQueues queues) {
            this.out = queues.producer("out");
        }

        @Override
        public String queueId() {
            return "in";
        }

        @Override
        public void handle(TaskBatch batch) {
            out.enqueueAll(batch.tasks().stream().map(task -> "forwarded " + task.payload()).toList());
        }
    }

    @Test
    void aConsumerMayInjectTheRegistry() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.in.table=" + table, "dbq.queues.in.layout=dbq_seq",
                        "dbq.queues.out.table=" + table, "dbq.queues.out.layout=dbq_seq")
                .withBean(ForwardingConsumer.class)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("in").enqueue("hello");
                    StarterTestSupport.await(Duration.ofSeconds(20), "the forwarded task",
                            () -> queues.monitor("out").depth().tasks() == 1);
                    assertThat(queues.deadLetters("in").count()).isZero();
                });
    }

    @Test
    void theRegistryNamesAnUnknownId() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq").run(context -> {
            DbQueues queues = context.getBean(DbQueues.class);
            assertThat(queues.ids()).containsExactly("main");
            assertThat(queues.workers("main")).isEmpty();
            assertThat(queues.producer("main")).isSameAs(queues.producer("main"));
            assertThat(queues.deadLetters("main").count()).isZero();
            assertThat(queues.monitor("main").depth().tasks()).isZero();
            assertThatThrownBy(() -> queues.producer("orders")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("unknown queue id 'orders'; configured under dbq.queues: [main]");
            assertThatThrownBy(() -> queues.workers("orders")).hasMessageContaining("unknown queue id 'orders'");
        });
    }

    @Test
    void twoConsumersOfOneQueueFailStartUp() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .withBean("first", RecordingConsumer.class, () -> new RecordingConsumer("main"))
                .withBean("second", RecordingConsumer.class, () -> new RecordingConsumer("main"))
                .run(context -> assertThat(StarterTestSupport.messages(context.getStartupFailure()))
                        .contains("queue id 'main' has two consumers"));
    }
}
