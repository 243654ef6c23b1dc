package io.dbqueue.example.orders;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.spring.listener.DbQueueListener;
import org.springframework.stereotype.Component;

import java.util.Set;

/**
 * Ships orders from the shipping queue. Exactly once: the listener runs in the claim's transaction,
 * which JPA joins, so an order is marked shipped if and only if its task is done. An item the
 * warehouse does not carry can never ship: its task goes to the dead letters at once.
 */
@Component
public class Shipping {

    static final Set<String> CARRIED = Set.of("book", "lamp", "chair");

    private final PurchaseOrders orders;

    public Shipping(PurchaseOrders orders) {
        this.orders = orders;
    }

    @DbQueueListener(queue = "shipping", mode = DeliveryMode.EXACTLY_ONCE, deadLetterOn = NotCarried.class)
    public void ship(ShipOrder message) {
        if (!CARRIED.contains(message.item())) {
            throw new NotCarried(message.item());
        }
        PurchaseOrder order = orders.findById(message.orderId()).orElseThrow();
        order.ship();
        orders.save(order);
    }

    /** An item the warehouse does not carry: no retry can ship it. */
    public static final class NotCarried extends RuntimeException {
        NotCarried(String item) {
            super("the warehouse does not carry " + item);
        }
    }
}
