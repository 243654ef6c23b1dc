package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.TaskBatch;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {

    @Test
    void metersCountWhatHappensPerQueue() {
        String table = createTable(Layout.DBQ_SEQ);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RecordingConsumer consumer = new RecordingConsumer("work");
        runner().withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq",
                        "dbq.queues.work.retry.max-attempts=1",
                        "dbq.queues.idle.table=" + table, "dbq.queues.idle.layout=dbq_seq",
                        "dbq.queues.throwing.table=" + table, "dbq.queues.throwing.layout=dbq_seq",
                        "dbq.queues.throwing.retry.max-attempts=1")
                .withBean(MeterRegistry.class, () -> registry)
                .withBean(RecordingConsumer.class, () -> consumer)
                .withBean("throwing", QueueConsumer.class, () -> new QueueConsumer() {
                    @Override
                    public String queueId() {
                        return "throwing";
                    }

                    @Override
                    public void handle(TaskBatch batch) {
                        throw new IllegalStateException("payment service down");
                    }
                })
                .run(context -> {
                    DbQueues queues = context.getBean(DbQueues.class);
                    queues.producer("work").enqueueAll(List.of("a", "b", "c", "fail-d"));
                    queues.producer("idle").enqueueAll(List.of("x", "y"));
                    queues.producer("throwing").enqueue("pay");
                    consumer.awaitHandled(4, Duration.ofSeconds(20));
                    // A batch's counters are incremented before its tasks' timers are recorded: wait for the timers too.
                    await(Duration.ofSeconds(10), "the batches' answers to be counted and timed",
                            () -> registry.get("dbq.tasks.dead").tag("queue", "work").counter().count() == 1
                                    && registry.get("dbq.tasks.processed").tag("queue", "work").counter().count() == 3
                                    && registry.get("dbq.tasks.dead").tag("queue", "throwing").counter().count() == 1
                                    && handledCount(registry, "work", "success", "none") == 3
                                    && handledCount(registry, "work", "dead-lettered", "none") == 1
                                    && handledCount(registry, "throwing", "dead-lettered", "IllegalStateException") == 1
                                    && registry.get("dbq.task.latency").tag("queue", "work").timer().count() == 3);

                    assertThat(registry.get("dbq.tasks.enqueued").tag("queue", "work").counter().count()).isEqualTo(4);
                    assertThat(registry.get("dbq.tasks.enqueued").tag("queue", "idle").counter().count()).isEqualTo(2);
                    assertThat(registry.get("dbq.tasks.processed").tag("queue", "work").counter().count()).isEqualTo(3);
                    assertThat(registry.get("dbq.tasks.failed").tag("queue", "work").counter().count()).isEqualTo(1);
                    assertThat(registry.get("dbq.claim.latency").tag("queue", "work").timer().count()).isPositive();
                    assertThat(registry.get("dbq.batch.size").tag("queue", "work").summary().totalAmount()).isEqualTo(4);
                    assertThat(registry.get("dbq.tasks.processed").tag("queue", "idle").counter().count()).isZero();

                    // a gauge never waits: NaN until the reading its first scrape started is at hand
                    await(Duration.ofSeconds(10), "the gauges' readings", () -> Stream.of(
                            registry.get("dbq.queue.depth").tag("queue", "idle").gauge(),
                            registry.get("dbq.queue.oldest.age").tag("queue", "idle").gauge(),
                            registry.get("dbq.queue.dead.letters").tag("queue", "work").gauge(),
                            registry.get("dbq.queue.dead.letters").tag("queue", "idle").gauge())
                            .noneMatch(gauge -> Double.isNaN(gauge.value())));
                    assertThat(registry.get("dbq.queue.depth").tag("queue", "idle").gauge().value()).isEqualTo(2);
                    assertThat(registry.get("dbq.queue.oldest.age").tag("queue", "idle").gauge().value())
                            .isGreaterThanOrEqualTo(0).isLessThan(60);
                    assertThat(queues.deadLetters("work").count()).isEqualTo(1);
                    assertThat(registry.get("dbq.queue.dead.letters").tag("queue", "work").gauge().value()).isEqualTo(1);
                    assertThat(registry.get("dbq.queue.dead.letters").tag("queue", "idle").gauge().value()).isZero();

                    assertThat(handled(registry, "work", "success", "none").count()).isEqualTo(3);
                    assertThat(handled(registry, "work", "dead-lettered", "none").count()).isEqualTo(1);
                    assertThat(handled(registry, "throwing", "dead-lettered", "IllegalStateException").count())
                            .isEqualTo(1);
                    Timer latency = registry.get("dbq.task.latency").tag("queue", "work").timer();
                    assertThat(latency.count()).isEqualTo(3);
                    assertThat(latency.max(TimeUnit.SECONDS)).isLessThan(60);

                    assertThat(registry.scrape()).as("the names as Prometheus exports them").contains(
                            "dbq_tasks_enqueued_total{queue=\"work\"} 4",
                            "dbq_tasks_dead_total{queue=\"work\"} 1",
                            "dbq_claim_latency_seconds_count{queue=\"work\"}",
                            "dbq_batch_size_sum{queue=\"work\"} 4",
                            "dbq_task_handled_seconds_count{exception=\"IllegalStateException\",queue=\"throwing\","
                                    + "result=\"dead-lettered\"} 1",
                            "dbq_task_latency_seconds_count{queue=\"work\"} 3",
                            "dbq_queue_depth{queue=\"idle\"} 2",
                            "dbq_queue_oldest_age_seconds{queue=\"idle\"}",
                            "dbq_queue_dead_letters{queue=\"work\"} 1");
                });
    }

    /** {@link #handled}'s count, 0 while the timer is not registered yet (it is, at its first task). */
    private static long handledCount(MeterRegistry registry, String queue, String result, String exception) {
        Timer timer = registry.find("dbq.task.handled").tags("queue", queue, "result", result, "exception", exception)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private static Timer handled(MeterRegistry registry, String queue, String result, String exception) {
        return registry.get("dbq.task.handled").tags("queue", queue, "result", result, "exception", exception).timer();
    }
}
