package io.dbqueue.spring;

import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.annotation.Qualifier;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class ProducerInjectionTest {

    record Sender(QueueProducer producer) {
    }

    record QualifiedSender(@Qualifier("audit") QueueProducer producer) {
    }

    @Test
    void theOnlyQueuesProducerIsInjectableByType() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq")
                .withBean(Sender.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    QueueProducer producer = context.getBean(Sender.class).producer();
                    assertThat(producer).isSameAs(context.getBean(DbQueues.class).producer("orders"));
                    producer.enqueue("injected");
                    assertThat(count("SELECT count(*) FROM " + table + " WHERE queue_name = 'orders'")).isEqualTo(1);
                });
    }

    @Test
    void aQueuesCoalescingProducerBatchesPerItsSettingsAndWritesItsTailWhenTheContextCloses() {
        String table = createTable(Layout.DBQ_SEQ);
        AtomicReference<CompletableFuture<Long>> tail = new AtomicReference<>();
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq",
                        "dbq.queues.orders.coalesce.max-batch=2", "dbq.queues.orders.coalesce.linger=1h")
                .run(context -> {
                    CoalescingProducer producer = context.getBean(DbQueues.class).coalescingProducer("orders");
                    assertThat(producer).isSameAs(context.getBean(DbQueues.class).coalescingProducer("orders"));
                    CompletableFuture<Long> first = producer.enqueueAsync("a");
                    CompletableFuture<Long> second = producer.enqueueAsync("b"); // a full batch of 2: written at once
                    assertThat(second.get(10, TimeUnit.SECONDS)).isGreaterThan(first.get(10, TimeUnit.SECONDS));
                    tail.set(producer.enqueueAsync("c"));                       // lingers for an hour
                    assertThat(tail.get()).isNotDone();
                });
        assertThat(tail.get()).as("written when the context closed").isCompleted();
        assertThat(count("SELECT count(*) FROM " + table + " WHERE queue_name = 'orders'")).isEqualTo(3);
    }

    @Test
    void anApplicationsOwnProducerBeanWins() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq")
                .withBean("myProducer", QueueProducer.class, () -> new QueueProducer(new PGSimpleDataSource(),
                        QueueLocation.of(Layout.DBQ_SEQ, "mine")))
                .withBean(Sender.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeanNamesForType(QueueProducer.class)).containsExactly("myProducer");
                    assertThat(context.getBean(Sender.class).producer().location().queueName()).isEqualTo("mine");
                });
    }

    @Test
    void withSeveralQueuesEachProducerIsQualifiedByItsId() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq",
                        "dbq.queues.audit.table=" + table, "dbq.queues.audit.layout=dbq_seq")
                .withBean(QualifiedSender.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(QualifiedSender.class).producer().location().queueName())
                            .isEqualTo("audit");
                    assertThat(context.getBean("ordersQueueProducer", QueueProducer.class).location().queueName())
                            .isEqualTo("orders");
                });
    }
}
