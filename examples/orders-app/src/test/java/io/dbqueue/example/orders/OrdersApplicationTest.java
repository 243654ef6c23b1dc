package io.dbqueue.example.orders;

import io.dbqueue.spring.QueueConsumerWorkers;
import io.dbqueue.test.AutoConfigureTestPostgres;
import io.dbqueue.test.DbQueueTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The example end to end on PostgreSQL, tested with db-queue-test: the application's DataSource on the
 * test PostgreSQL ({@code @AutoConfigureTestPostgres}), and the consumers starting only when a test says so
 * ({@code dbq.auto-startup=false}), so a test sees exactly what a checkout enqueued, then waits until the
 * consumer has processed it.
 */
@SpringBootTest(properties = "dbq.auto-startup=false")
@AutoConfigureTestPostgres
@Import(DbQueueTester.class)
class OrdersApplicationTest {

    @Autowired
    Checkout checkout;

    @Autowired
    PurchaseOrders orders;

    @Autowired
    DbQueueTester queues;

    @Autowired
    QueueConsumerWorkers consumers;

    @BeforeEach
    void emptyQueue() {
        queues.drain("shipping");
    }

    @AfterEach
    void stopConsumers() {
        consumers.stop();
    }

    @Test
    void aPlacedOrderEnqueuesItsShipmentAndTheConsumerShipsIt() throws Exception {
        long id = checkout.place("book", 2).getId();
        queues.assertEnqueued("shipping", new ShipOrder(id, "book", 2));

        consumers.start();
        queues.awaitProcessed("shipping", Duration.ofSeconds(30));
        assertThat(orders.findById(id).orElseThrow().getStatus()).isEqualTo(PurchaseOrder.Status.SHIPPED);
    }

    @Test
    void aRolledBackCheckoutLeavesNeitherTheOrderNorItsTask() {
        long before = orders.count();
        assertThatThrownBy(() -> checkout.place("lamp", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(orders.count()).isEqualTo(before);
        assertThat(queues.enqueued("shipping", ShipOrder.class)).isEmpty();
    }

    @Test
    void anOrderThatCannotShipEndsInTheDeadLettersAtOnce() throws Exception {
        long id = checkout.place("piano", 1).getId();

        consumers.start();
        queues.awaitProcessed("shipping", Duration.ofSeconds(30));
        assertThat(queues.deadLetters("shipping")).singleElement()
                .satisfies(dead -> {
                    assertThat(dead.attempt()).as("not retried").isEqualTo(1);
                    assertThat(dead.lastError()).isEqualTo("NotCarried: the warehouse does not carry piano");
                });
        assertThat(orders.findById(id).orElseThrow().getStatus()).isEqualTo(PurchaseOrder.Status.PLACED);
    }
}
