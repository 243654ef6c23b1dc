package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link DbQueueTemplate}'s sends with a priority, on the test database. */
class TemplatePriorityTest {

    @Test
    void theTemplateStoresEachMessagesPriority() {
        String table = createTable(Layout.DBQ_SEQ_PRIORITY);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq_priority")
                .run(context -> {
                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    template.send("orders", "urgent", 9);
                    template.send("orders", "later", Duration.ofHours(1), -2);
                    template.sendAll("orders", List.of("a", "b"), 3);
                    template.send("orders", "plain");
                    assertThat(count("SELECT count(*) FROM " + table + " WHERE (payload, priority) IN"
                            + " (('urgent', 9), ('later', -2), ('a', 3), ('b', 3), ('plain', 0))")).isEqualTo(5);
                    assertThat(count("SELECT count(*) FROM " + table + " WHERE payload = 'later'"
                            + " AND next_process_at > now() + interval '59 minutes'")).isEqualTo(1);
                });
    }

    @Test
    void aPriorityOnALayoutWithoutPrioritiesIsRefusedAndNothingIsStored() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq")
                .run(context -> {
                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    assertThatThrownBy(() -> template.send("orders", "urgent", 9))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageStartingWith("priority needs a layout with priorities (dbq_seq_priority, dbq_seq_priority_key)");
                    assertThat(count("SELECT count(*) FROM " + table)).isZero();
                });
    }
}
