package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.spring.health.DbQueueHealthIndicator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.util.List;
import java.util.Map;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class HealthTest {

    @Test
    void upWithDepthAndWorkerStatePerQueue() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.consumed.table=" + table, "dbq.queues.consumed.layout=dbq_seq",
                        "dbq.queues.produced.table=" + table, "dbq.queues.produced.layout=dbq_seq")
                .withBean(RecordingConsumer.class, () -> new RecordingConsumer("consumed"))
                .run(context -> {
                    context.getBean(DbQueues.class).producer("produced").enqueueAll(List.of("a", "b", "c"));
                    Health health = context.getBean("dbQueueHealthIndicator", DbQueueHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    Map<?, ?> produced = (Map<?, ?>) health.getDetails().get("produced");
                    assertThat(produced.get("depth")).isEqualTo(3L);
                    assertThat(produced.get("workers")).isEqualTo("none");
                    assertThat(produced.get("location")).isEqualTo(table + "/produced");
                    Map<?, ?> consumed = (Map<?, ?>) health.getDetails().get("consumed");
                    assertThat(consumed.get("workers")).isEqualTo("running");
                });
    }

    @Test
    void downWhenAQueueCannotBeRead() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    StarterTestSupport.execute("DROP TABLE " + table);
                    Health health = context.getBean(DbQueueHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(((Map<?, ?>) health.getDetails().get("main")).get("error").toString())
                            .contains(table);
                });
    }
}
