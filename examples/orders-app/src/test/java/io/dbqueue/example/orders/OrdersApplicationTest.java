package io.dbqueue.example.orders;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.DeadTask;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.spring.DbQueues;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The example end to end on PostgreSQL: an order ships, a rolled-back order leaves nothing, an unshippable one is dead-lettered. */
@SpringBootTest
class OrdersApplicationTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        PostgresServer db = PostgresServer.shared();
        String url = db.createDatabase("orders_app_test");
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
    }

    @Autowired
    Checkout checkout;

    @Autowired
    PurchaseOrders orders;

    @Autowired
    DbQueues queues;

    @Test
    void aPlacedOrderIsShipped() throws Exception {
        long id = checkout.place("book", 2).getId();
        await("the order shipped", () -> orders.findById(id).orElseThrow().getStatus() == PurchaseOrder.Status.SHIPPED);
    }

    @Test
    void aRolledBackOrderLeavesNeitherTheOrderNorItsTask() {
        long before = orders.count();
        QueueMonitor shipping = queues.monitor("shipping");
        long waiting = shipping.depth().tasks();
        assertThatThrownBy(() -> checkout.place("lamp", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(orders.count()).isEqualTo(before);
        assertThat(shipping.depth().tasks()).isEqualTo(waiting);
    }

    @Test
    void anOrderThatCannotShipGoesToTheDeadLettersAtOnce() throws Exception {
        long id = checkout.place("piano", 1).getId();
        DeadLetters dead = queues.deadLetters("shipping");
        await("the task dead-lettered", () -> dead.list(0, 100).stream().anyMatch(t -> t.payload().contains("\"orderId\":" + id)));
        List<DeadTask> tasks = dead.list(0, 100).stream().filter(t -> t.payload().contains("\"orderId\":" + id)).toList();
        assertThat(tasks.get(0).attempt()).isEqualTo(1);
        assertThat(tasks.get(0).lastError()).isEqualTo("NotCarried: the warehouse does not carry piano");
        assertThat(orders.findById(id).orElseThrow().getStatus()).isEqualTo(PurchaseOrder.Status.PLACED);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
