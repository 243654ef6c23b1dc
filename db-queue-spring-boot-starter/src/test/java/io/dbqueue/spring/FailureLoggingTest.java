package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** With the default configuration a failing handler's attempts and dead-lettering are logged; dbq.failure-logging turns it down. */
@ExtendWith(OutputCaptureExtension.class)
class FailureLoggingTest {

    private static String[] failingQueue(String table) {
        return new String[]{"dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                "dbq.queues.work.retry.type=linear", "dbq.queues.work.retry.interval=10ms",
                "dbq.queues.work.retry.max-attempts=2"};
    }

    @Test
    void failedAttemptsAreWarningsAndTheDeadLetteringAnErrorByDefault(CapturedOutput output) {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(failingQueue(table))
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("work"))
                .run(context -> {
                    long id = context.getBean(DbQueues.class).producer("work").enqueue("fail-always");
                    String dead = table + "/work: task " + id + " moved to the dead letters after attempt 2: told to fail";
                    await(Duration.ofSeconds(20), "the dead-lettering's line", () -> output.getAll().contains(dead));

                    assertThat(output.getAll()).containsPattern("WARN +io.dbqueue.queue.FailureLog - " + table
                            + "/work: task " + id + " failed on attempt 1: told to fail");
                    assertThat(output.getAll()).containsPattern("ERROR +io.dbqueue.queue.FailureLog - " + table + "/work: task " + id
                            + " moved");
                });
    }

    @Test
    void errorLogsOnlyTheDeadLettering(CapturedOutput output) {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(failingQueue(table)).withPropertyValues("dbq.failure-logging=error")
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("work"))
                .run(context -> {
                    long id = context.getBean(DbQueues.class).producer("work").enqueue("fail-always");
                    await(Duration.ofSeconds(20), "the dead-lettering's line", () -> output.getAll()
                            .contains(table + "/work: task " + id + " moved to the dead letters after attempt 2"));

                    assertThat(output.getAll()).doesNotContain("failed on attempt 1");
                });
    }
}
