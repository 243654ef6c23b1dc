package io.dbqueue.spring;

import io.dbqueue.log.LogMessage;
import io.dbqueue.queue.Layout;
import io.dbqueue.spring.actuate.DbQueueEndpoint;
import io.dbqueue.spring.actuate.DbQueueEndpointAutoConfiguration;
import io.dbqueue.spring.actuate.DbQueueReport;
import io.dbqueue.spring.log.DbQueueTopics;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Actuator endpoint {@code dbqueue}: reads, writes, writes refused, and a pause seen by a second instance. */
class EndpointTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration WITHIN_A_SECOND = Duration.ofSeconds(1);

    /** The starter with the endpoint exposed, its queue {@code jobs} (woken by notifications) on {@code table}. */
    private static ApplicationContextRunner instance(String table) {
        return StarterTestSupport.runner()
                .withConfiguration(AutoConfigurations.of(DbQueueEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=dbqueue",
                        "dbq.queues.jobs.table=" + table, "dbq.queues.jobs.layout=dbq_seq",
                        "dbq.queues.jobs.wakeup=notify", "dbq.queues.jobs.retry.max-attempts=1",
                        "dbq.queues.control.table=" + table, "dbq.queues.control.layout=dbq_seq",
                        "dbq.queues.control.wakeup=notify");
    }

    @Test
    void writeOperationsAreRefusedUnlessEnabled() {
        String table = createTable(Layout.DBQ_SEQ);
        instance(table).run(context -> {
            DbQueueEndpoint endpoint = context.getBean(DbQueueEndpoint.class);
            assertThat(endpoint.report().writeEnabled()).isFalse();
            assertThatThrownBy(() -> endpoint.change("jobs", "pause", null, null, null, null, null))
                    .isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("dbq.endpoint.write-enabled=true");
            assertThat(endpoint.queue("jobs").paused()).isFalse();
        });
    }

    @Test
    void readsEachQueueAndTopicAndWritesDeadLettersAndWaitingTasks() {
        String table = createTable(Layout.DBQ_SEQ);
        String topic = StarterTestSupport.uniqueTable();
        RecordingConsumer jobs = new RecordingConsumer("jobs");
        LogStarterTest.AuditListener audit = new LogStarterTest.AuditListener(topic);
        instance(table).withPropertyValues("dbq.endpoint.write-enabled=true",
                        "dbq.log.topics." + topic + ".partitions=2", "dbq.log.topics." + topic + ".groups.audit.members=1")
                .withBean(RecordingConsumer.class, () -> jobs)
                .withBean(LogStarterTest.AuditListener.class, () -> audit)
                .run(context -> {
                    DbQueueEndpoint endpoint = context.getBean(DbQueueEndpoint.class);
                    DbQueues queues = context.getBean(DbQueues.class);
                    List<Long> failed = queues.producer("jobs").enqueueAll(List.of("ok", "fail-1", "fail-2"));
                    jobs.awaitHandled(3, TIMEOUT);
                    await(TIMEOUT, "two dead letters", () -> endpoint.queue("jobs").deadLetters() == 2);
                    long waiting = queues.producer("control").enqueue("waiting");
                    long keyed = queues.producer("control").enqueueOnce("order-7", "keyed").id();

                    DbQueueReport report = endpoint.report();
                    assertThat(report.queues()).containsOnlyKeys("jobs", "control");
                    DbQueueReport.Queue control = report.queues().get("control");
                    assertThat(control.location()).isEqualTo(table + "/control");
                    assertThat(control.waiting()).isEqualTo(2);
                    assertThat(control.workers()).isNull();
                    DbQueueReport.Queue queue = report.queues().get("jobs");
                    assertThat(queue.workers().state()).isEqualTo("running");
                    assertThat(queue.workers().wakeup()).isEqualTo("notify");
                    await(TIMEOUT, "the finish counted", () -> endpoint.queue("jobs").recent().finished() == 1);
                    assertThat(endpoint.queue("jobs").recent()).isEqualTo(new DbQueueReport.Recent(5, 1, 2, 2));
                    assertThat(report.topics().get(topic).partitions()).isEqualTo(2);
                    context.getBean(DbQueueTopics.class).producer(topic)
                            .sendAll(List.of(new LogMessage("a", "1"), new LogMessage("b", "2"), new LogMessage("c", "3")));
                    await(TIMEOUT, "the audit group read the topic", () -> audit.payloads.size() == 3);
                    await(TIMEOUT, "the audit group committed", () -> {
                        DbQueueReport.Group group = endpoint.report().topics().get(topic).groups().get("audit");
                        return group != null && group.lag() == 0 && group.partitions().size() == 2;
                    });
                    assertThat(endpoint.report().topics().get(topic).groups().get("audit").partitions())
                            .extracting(DbQueueReport.PartitionLag::partition).containsExactly(0, 1);
                    assertThat(endpoint.queue("nope")).isNull();

                    assertThat(endpoint.change("jobs", "requeue", String.valueOf(failed.get(1)), null, null, null, null)
                            .affected()).isEqualTo(1);
                    jobs.awaitHandled(4, TIMEOUT);
                    assertThat(jobs.handled()).endsWith("fail-1");
                    await(TIMEOUT, "the requeued task failed again", () -> endpoint.queue("jobs").deadLetters() == 2);
                    assertThat(queues.deadLetters("jobs").list(0, 10)).extracting(t -> t.id())
                            .as("the requeued dead letter kept its id").containsExactly(failed.get(1), failed.get(2));
                    DbQueueReport.DeadLetterPage page = (DbQueueReport.DeadLetterPage) endpoint.view("jobs",
                            "dead-letters", null, null, null, 1);
                    assertThat(page.deadLetters()).extracting(DbQueueReport.DeadLetter::payload).containsExactly("fail-1");
                    assertThat(page.deadLetters().get(0).lastError()).isEqualTo("told to fail");
                    assertThat(page.next()).isEqualTo(failed.get(1));
                    page = (DbQueueReport.DeadLetterPage) endpoint.view("jobs", "dead-letters", null, null, page.next(), 1);
                    assertThat(page.deadLetters()).extracting(DbQueueReport.DeadLetter::id).containsExactly(failed.get(2));
                    assertThat(((DbQueueReport.TaskLookup) endpoint.view("jobs", "task", failed.get(2), null, null,
                            null)).state()).isEqualTo("DEAD");
                    assertThat(((DbQueueReport.TaskLookup) endpoint.view("jobs", "task", failed.get(0), null, null,
                            null)).state()).as("finished").isEqualTo("GONE");
                    assertThat(((DbQueueReport.TaskLookup) endpoint.view("control", "task", null, "order-7", null,
                            null))).extracting(DbQueueReport.TaskLookup::id, DbQueueReport.TaskLookup::state,
                            DbQueueReport.TaskLookup::payload).containsExactly(keyed, "WAITING", "keyed");
                    assertThat(endpoint.view("control", "task", null, "order-8", null, null)).as("unknown key").isNull();
                    assertThat(endpoint.view("nope", "task", 1L, null, null, null)).isNull();
                    assertThatThrownBy(() -> endpoint.view("control", "tasks", 1L, null, null, null))
                            .isInstanceOf(InvalidEndpointRequestException.class).hasMessageContaining("unknown view");
                    assertThat(endpoint.change("jobs", "delete", null, true, null, null, null).affected()).isEqualTo(2);

                    assertThat(endpoint.change("control", "reschedule", null, null, waiting, null,
                            Instant.now().plusSeconds(3600).toString()).affected()).isEqualTo(1);
                    assertThat(endpoint.queue("control").scheduled()).isEqualTo(1);
                    assertThat(endpoint.change("control", "cancel", null, null, waiting, null, null).affected())
                            .isEqualTo(1);
                    assertThat(endpoint.change("control", "cancel", null, null, null, "order-7", null).affected())
                            .isEqualTo(1);
                    assertThat(endpoint.change("control", "cancel", null, null, keyed, null, null).affected())
                            .as("cancelled already").isZero();

                    assertThatThrownBy(() -> endpoint.change("control", "reschedule", null, null, waiting, null,
                            "tomorrow")).isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("dueAt must be an ISO-8601 instant");
                    assertThatThrownBy(() -> endpoint.change("control", "requeue", null, null, null, null, null))
                            .isInstanceOf(InvalidEndpointRequestException.class).hasMessageContaining("ids");
                    assertThatThrownBy(() -> endpoint.change("control", "restart", null, null, null, null, null))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("unknown action 'restart'");
                    assertThatThrownBy(() -> endpoint.change("nope", "pause", null, null, null, null, null))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("unknown queue id 'nope'");
                });
    }

    /**
     * Two application contexts on one database stand for two instances: a pause through the first one's endpoint
     * holds the second one's workers within a second, and a resume through the second restarts both.
     */
    @Test
    void pauseThroughOneInstanceStopsTheWorkersOfAnotherAndResumeRestartsThem() {
        String table = createTable(Layout.DBQ_SEQ);
        RecordingConsumer first = new RecordingConsumer("jobs");
        RecordingConsumer second = new RecordingConsumer("jobs");
        RecordingConsumer control = new RecordingConsumer("control");
        instance(table).withPropertyValues("dbq.endpoint.write-enabled=true")
                .withBean(RecordingConsumer.class, () -> first)
                .run(one -> instance(table).withPropertyValues("dbq.endpoint.write-enabled=true")
                        .withBean(RecordingConsumer.class, () -> second)
                        .withBean("controlConsumer", RecordingConsumer.class, () -> control)
                        .run(two -> {
                            DbQueueEndpoint endpointOne = one.getBean(DbQueueEndpoint.class);
                            DbQueueEndpoint endpointTwo = two.getBean(DbQueueEndpoint.class);
                            assertThat(endpointOne.change("jobs", "pause", null, null, null, null, null).affected())
                                    .isEqualTo(1);
                            await(WITHIN_A_SECOND, "both instances' workers hold the paused queue",
                                    () -> "held".equals(endpointTwo.queue("jobs").workers().state())
                                            && "held".equals(endpointOne.queue("jobs").workers().state()));
                            assertThat(endpointTwo.queue("jobs").paused()).isTrue();

                            one.getBean(DbQueues.class).producer("jobs").enqueue("while paused");
                            one.getBean(DbQueues.class).producer("control").enqueue("control");
                            control.awaitHandled(1, TIMEOUT);
                            assertThat(first.handled()).isEmpty();
                            assertThat(second.handled()).isEmpty();
                            assertThat(endpointOne.queue("jobs").waiting()).isEqualTo(1);

                            assertThat(endpointTwo.change("jobs", "resume", null, null, null, null, null).affected())
                                    .isEqualTo(1);
                            await(WITHIN_A_SECOND, "both instances' workers running again",
                                    () -> "running".equals(endpointTwo.queue("jobs").workers().state())
                                            && "running".equals(endpointOne.queue("jobs").workers().state()));
                            await(TIMEOUT, "the task enqueued during the pause handled",
                                    () -> first.handled().size() + second.handled().size() == 1);
                        }));
    }
}
