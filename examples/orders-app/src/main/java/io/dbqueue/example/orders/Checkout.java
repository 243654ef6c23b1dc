package io.dbqueue.example.orders;

import io.dbqueue.spring.DbQueueTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders: the order row and its shipping task commit together, or neither does (a transactional outbox). */
@Service
public class Checkout {

    private final PurchaseOrders orders;
    private final DbQueueTemplate queues;

    public Checkout(PurchaseOrders orders, DbQueueTemplate queues) {
        this.orders = orders;
        this.queues = queues;
    }

    @Transactional
    public PurchaseOrder place(String item, int quantity) {
        PurchaseOrder order = orders.save(new PurchaseOrder(item, quantity));
        queues.send("shipping", new ShipOrder(order.getId(), item, quantity));
        if (quantity <= 0) {
            // Thrown after both writes: the rollback takes the order and its task back alike.
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        return order;
    }
}
