package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {

    @Test
    void metersCountWhatHappensPerQueue() {
        String table = createTable(Layout.DBQ_SEQ);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecordingConsumer consumer = new RecordingConsumer("work");
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.queues.work.retry.max-attempts=1",
                        "dbq.queues.idle.table=" + table, "dbq.queues.idle.layout=dbq_seq")
                .withBean(MeterRegistry.class, () -> registry)
                .withBean(RecordingConsumer.class, () -> consumer)
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("work").enqueueAll(List.of("a", "b", "c", "fail-d"));
                    queues.producer("idle").enqueueAll(List.of("x", "y"));
                    consumer.awaitHandled(4, Duration.ofSeconds(20));
                    await(Duration.ofSeconds(10), "the batch's answers to be counted",
                            () -> registry.get("dbq.tasks.dead").tag("queue", "work").counter().count() == 1
                                    && registry.get("dbq.tasks.processed").tag("queue", "work").counter().count() == 3);

                    assertThat(registry.get("dbq.tasks.enqueued").tag("queue", "work").counter().count()).isEqualTo(4);
                    assertThat(registry.get("dbq.tasks.enqueued").tag("queue", "idle").counter().count()).isEqualTo(2);
                    assertThat(registry.get("dbq.tasks.processed").tag("queue", "work").counter().count()).isEqualTo(3);
                    assertThat(registry.get("dbq.tasks.failed").tag("queue", "work").counter().count()).isEqualTo(1);
                    assertThat(registry.get("dbq.claim.latency").tag("queue", "work").timer().count()).isPositive();
                    assertThat(registry.get("dbq.batch.size").tag("queue", "work").summary().totalAmount()).isEqualTo(4);
                    assertThat(registry.get("dbq.tasks.processed").tag("queue", "idle").counter().count()).isZero();

                    assertThat(registry.get("dbq.queue.depth").tag("queue", "idle").gauge().value()).isEqualTo(2);
                    assertThat(registry.get("dbq.queue.oldest.age.seconds").tag("queue", "idle").gauge().value())
                            .isGreaterThanOrEqualTo(0).isLessThan(60);
                    assertThat(queues.deadLetters("work").count()).isEqualTo(1);
                });
    }
}
