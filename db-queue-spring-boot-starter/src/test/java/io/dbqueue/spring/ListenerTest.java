package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.DeadTask;
import io.dbqueue.queue.IdempotencyKeyReusedException;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer.Enqueued;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Uniqueness;
import io.dbqueue.spring.listener.DbQueueListener;
import org.junit.jupiter.api.Test;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code @DbQueueListener} methods and typed messages, end to end on the test database. */
class ListenerTest {

    record Order(String id, int quantity) {
    }

    static class OrderListener {
        final List<Order> orders = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "orders")
        void on(Order order) {
            if (order.quantity() < 0) {
                throw new IllegalArgumentException("negative quantity " + order.quantity());
            }
            if (order.quantity() == 0) {
                throw new IllegalStateException("stock service down");
            }
            orders.add(order);
        }
    }

    abstract static class TypedListener<T> {
        final List<Object> received = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "orders")
        void on(T message) {
            received.add(message);
        }
    }

    static class OrdersOfAGenericBase extends TypedListener<Order> {
    }

    static class DeadLetteringListener extends OrderListener {
        @Override
        @DbQueueListener(queue = "orders", deadLetterOn = IllegalArgumentException.class)
        void on(Order order) {
            super.on(order);
        }
    }

    static class BatchListener {
        final List<List<Order>> batches = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "orders", concurrency = 3, batchSize = 7, mode = DeliveryMode.AT_MOST_ONCE)
        void on(List<Order> orders) {
            batches.add(orders);
        }
    }

    /** Overloads of one name on two queues, one named through a placeholder. */
    static class OverloadedListener {
        final List<Order> orders = new CopyOnWriteArrayList<>();
        final List<String> notes = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "${app.orders-queue}")
        void on(Order order) {
            orders.add(order);
        }

        @DbQueueListener(queue = "notes")
        void on(String note) {
            notes.add(note);
        }
    }

    static class NegativeConcurrencyListener {
        @DbQueueListener(queue = "orders", concurrency = -1)
        void on(Order order) {
        }
    }

    static class ExactlyOnceListener {
        @DbQueueListener(queue = "orders", mode = DeliveryMode.EXACTLY_ONCE)
        void on(Order order) {
        }
    }

    static class WrongListener {
        @DbQueueListener(queue = "orders")
        void on(Order order, String extra) {
        }
    }

    private static String[] properties(String table) {
        return new String[]{"dbq.queues.orders.table=" + table, "dbq.queues.orders.layout=dbq_seq",
                "dbq.queues.orders.wakeup=notify", "dbq.queues.orders.no-task-timeout=200ms",
                "dbq.queues.orders.retry.interval=1h"};
    }

    @Test
    void aTypedListenerGetsWhatTheTemplateSent() {
        String table = createTable(Layout.DBQ_SEQ);
        OrderListener listener = new OrderListener();
        runner().withPropertyValues(properties(table)).withBean(OrderListener.class, () -> listener).run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            template.send("orders", new Order("a-1", 2));
            template.sendAll("orders", List.of(new Order("a-2", 3), new Order("a-3", 4)));
            await(Duration.ofSeconds(30), "the listener", () -> listener.orders.size() == 3);
            assertThat(listener.orders).containsExactlyInAnyOrder(new Order("a-1", 2), new Order("a-2", 3),
                    new Order("a-3", 4));
        });
    }

    /**
     * Under lazy initialization a listener bean that nothing injects is made all the same: its methods are found when
     * it is made, and it was never made, so its queue had no consumer and health still said UP.
     */
    @Test
    void aListenerBeanIsMadeUnderLazyInitialization() {
        String table = createTable(Layout.DBQ_SEQ);
        OrderListener listener = new OrderListener();
        runner().withInitializer(context -> context.addBeanFactoryPostProcessor(
                        new LazyInitializationBeanFactoryPostProcessor()))
                .withPropertyValues(properties(table)).withBean(OrderListener.class, () -> listener).run(context -> {
                    context.getBean(DbQueueTemplate.class).send("orders", new Order("lazy-1", 1));
                    await(Duration.ofSeconds(30), "the listener", () -> listener.orders.size() == 1);
                });
    }

    /** A generic base class's method takes the message type its subclass binds: it read a map, and failed the cast. */
    @Test
    void aGenericBaseClassesMethodTakesTheMessageTypeOfItsSubclass() {
        String table = createTable(Layout.DBQ_SEQ);
        OrdersOfAGenericBase listener = new OrdersOfAGenericBase();
        runner().withPropertyValues(properties(table)).withBean(OrdersOfAGenericBase.class, () -> listener)
                .run(context -> {
                    context.getBean(DbQueueTemplate.class).send("orders", new Order("g-1", 1));
                    await(Duration.ofSeconds(30), "the listener", () -> listener.received.size() == 1);
                    assertThat(listener.received).containsExactly(new Order("g-1", 1));
                });
    }

    @Test
    void overloadsAreTwoListenersAndAQueueIdMayBeAPlaceholder() {
        String table = createTable(Layout.DBQ_SEQ);
        OverloadedListener listener = new OverloadedListener();
        runner().withPropertyValues(properties(table)).withPropertyValues("app.orders-queue=orders",
                        "dbq.queues.notes.table=" + table, "dbq.queues.notes.layout=dbq_seq",
                        "dbq.queues.notes.wakeup=notify")
                .withBean(OverloadedListener.class, () -> listener).run(context -> {
                    DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
                    template.send("orders", new Order("o-1", 1));
                    template.send("notes", "n-1");
                    await(Duration.ofSeconds(30), "both listeners",
                            () -> listener.orders.size() == 1 && listener.notes.size() == 1);
                    assertThat(listener.orders).containsExactly(new Order("o-1", 1));
                    assertThat(listener.notes).containsExactly("n-1");
                });
    }

    /** A payload that is not an Order, a JSON null among them (Jackson reads it as null, not as an error). */
    @ParameterizedTest
    @ValueSource(strings = {"{\"id\": \"b-1\", \"quantity\": \"many\"}", "null"})
    void anUnreadablePayloadGoesToTheDeadLettersWithTheReasonAndIsNotRetried(String payload) {
        String table = createTable(Layout.DBQ_SEQ);
        OrderListener listener = new OrderListener();
        runner().withPropertyValues(properties(table)).withBean(OrderListener.class, () -> listener).run(context -> {
            DbQueues queues = context.getBean(DbQueues.class);
            queues.producer("orders").enqueue(payload);
            DeadLetters dead = queues.deadLetters("orders");
            await(Duration.ofSeconds(30), "the listener", () -> dead.count() == 1);
            DeadTask task = dead.list(0, 10).get(0);
            assertThat(task.attempt()).isEqualTo(1);
            assertThat(task.lastError()).startsWith("payload is not a " + Order.class.getTypeName());
            assertThat(listener.orders).isEmpty();
        });
    }

    @Test
    void failuresMarkedNotRetryableAreDeadLetteredAtOnceAndOthersRetried() {
        String table = createTable(Layout.DBQ_SEQ);
        OrderListener listener = new DeadLetteringListener();
        runner().withPropertyValues(properties(table)).withBean(OrderListener.class, () -> listener).run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            DbQueues queues = context.getBean(DbQueues.class);
            template.send("orders", new Order("c-1", -1));
            template.send("orders", new Order("c-2", 0));
            DeadLetters dead = queues.deadLetters("orders");
            await(Duration.ofSeconds(30), "the listener", () -> dead.count() == 1);
            assertThat(dead.list(0, 10).get(0).lastError()).isEqualTo("IllegalArgumentException: negative quantity -1");
            await(Duration.ofSeconds(30), "the listener", () -> count(
                    "SELECT count(*) FROM " + table + " WHERE attempt = 1 AND next_process_at > now()") == 1);
            assertThat(dead.count()).as("the retryable failure waits for its retry").isEqualTo(1);
        });
    }

    @Test
    void theAnnotationOverridesConcurrencyBatchSizeAndMode() {
        String table = createTable(Layout.DBQ_SEQ);
        BatchListener listener = new BatchListener();
        runner().withPropertyValues(properties(table)).withBean(BatchListener.class, () -> listener).run(context -> {
            QueueWorkers workers = context.getBean(DbQueues.class).workers("orders").orElseThrow();
            assertThat(workers.config().threads()).isEqualTo(3);
            assertThat(workers.config().poll().batchSize()).isEqualTo(7);
            assertThat(workers.config().mode()).isEqualTo(DeliveryMode.AT_MOST_ONCE);
            context.getBean(DbQueueTemplate.class).sendAll("orders",
                    List.of(new Order("d-1", 1), new Order("d-2", 1), new Order("d-3", 1)));
            await(Duration.ofSeconds(30), "the listener", () -> listener.batches.stream().mapToInt(List::size).sum() == 3);
            assertThat(listener.batches.stream().flatMap(List::stream).map(Order::id)).containsExactlyInAnyOrder(
                    "d-1", "d-2", "d-3");
        });
    }

    @Test
    void aMethodThatCannotBeAListenerFailsStartUpNamingIt() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(properties(table)).withBean(WrongListener.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(
                    "@DbQueueListener method " + WrongListener.class.getName() + ".on must take one parameter");
        });
    }

    /**
     * An annotation's values the queue cannot take fail the context's start, auto-startup or not: they were checked
     * only as the workers started, with auto-startup off later.
     */
    @Test
    void anAnnotationsBadValuesFailStartUpEvenWithoutAutoStartup() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(properties(table)).withPropertyValues("dbq.auto-startup=false")
                .withBean(NegativeConcurrencyListener.class).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(messages(context.getStartupFailure())).contains("threads must be between 1");
                });
        runner().withPropertyValues(properties(table)).withPropertyValues("dbq.auto-startup=false",
                        "dbq.queues.orders.executor=applicationTaskExecutor")
                .withBean("applicationTaskExecutor", Executor.class, () -> Runnable::run)
                .withBean(ExactlyOnceListener.class).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(messages(context.getStartupFailure())).contains(
                            "consumes queue id 'orders' exactly once, which dbq.queues.orders.executor cannot");
                });
    }

    @Test
    void theTemplateSendsWithADelayAndOncePerKey() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(properties(table)).run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            long delayed = template.send("orders", new Order("e-1", 1), Duration.ofHours(1));
            Enqueued first = template.sendOnce("orders", "order-e-2", new Order("e-2", 1));
            Enqueued repeat = template.sendOnce("orders", "order-e-2", new Order("e-2", 9), Duration.ofHours(1));
            Enqueued later = template.sendOnce("orders", "order-e-3", new Order("e-3", 1), Duration.ofHours(1));
            assertThat(first.stored()).isTrue();
            assertThat(repeat).isEqualTo(new Enqueued(first.id(), false));
            assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(3);
            assertThat(count("SELECT count(*) FROM " + table + " WHERE next_process_at > now() + interval '59 minutes'"
                    + " AND id IN (" + delayed + ", " + later.id() + ")")).isEqualTo(2);
            assertThatThrownBy(() -> template.sendOnce("orders", null, new Order("e-4", 1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
        });
    }

    @Test
    void theTemplateSendsWithAFingerprintAndAsUniqueAsAsked() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(properties(table)).run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            Duration hour = Duration.ofHours(1);
            Enqueued first = template.sendOnce("orders", "order-f-1", new Order("f-1", 1), hour, "hash-1");
            assertThat(template.sendOnce("orders", "order-f-1", new Order("f-1", 1), hour, "hash-1"))
                    .isEqualTo(new Enqueued(first.id(), false));
            assertThatThrownBy(() -> template.sendOnce("orders", "order-f-1", new Order("f-1", 2), hour, "hash-2"))
                    .isInstanceOf(IdempotencyKeyReusedException.class);

            Enqueued debounced = template.sendOnce("orders", "order-d-1", new Order("d-1", 1), hour, Uniqueness.DEBOUNCE);
            assertThat(template.sendOnce("orders", "order-d-1", new Order("d-1", 2), hour, Uniqueness.DEBOUNCE))
                    .isEqualTo(new Enqueued(debounced.id(), false, true));
            assertThat(count("SELECT count(*) FROM " + table + " WHERE payload LIKE '%\"quantity\":2%' AND id = "
                    + debounced.id())).isEqualTo(1);
            assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(2);
        });
    }

    @Test
    void theTemplateRefusesANullMessage() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues(properties(table)).run(context -> {
            DbQueueTemplate template = context.getBean(DbQueueTemplate.class);
            assertThatThrownBy(() -> template.send("orders", null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("a message must not be null");
        });
    }
}
