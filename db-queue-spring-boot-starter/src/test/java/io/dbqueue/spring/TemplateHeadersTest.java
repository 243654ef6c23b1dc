package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link DbQueueTemplate}'s send with headers, on the test database. */
class TemplateHeadersTest {

    @Test
    void theTemplateStoresTheMessagesHeaders() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq")
                .run(context -> {
                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    long id = template.send("orders", "order-1", Map.of("customer", "c-42"));
                    assertThat(count("SELECT count(*) FROM " + table + " WHERE id = " + id
                            + " AND payload = 'order-1' AND headers ->> 'customer' = 'c-42'")).isEqualTo(1);
                    long later = template.send("orders", "order-2", Duration.ofHours(1), Map.of("customer", "c-7"));
                    assertThat(count("SELECT count(*) FROM " + table + " WHERE id = " + later
                            + " AND headers ->> 'customer' = 'c-7' AND next_process_at > now() + interval '59 minutes'"))
                            .as("delayed, with its headers").isEqualTo(1);
                });
    }

    @Test
    void aNullHeaderValueIsRefusedAndNothingIsStored() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq")
                .run(context -> {
                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    Map<String, String> bad = new HashMap<>();
                    bad.put("customer", null);
                    assertThatThrownBy(() -> template.send("orders", "order-1", bad))
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("headers");
                    assertThat(count("SELECT count(*) FROM " + table)).isZero();
                });
    }
}
