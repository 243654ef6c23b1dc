package io.dbqueue.example.orders;

import org.springframework.data.jpa.repository.JpaRepository;

public interface PurchaseOrders extends JpaRepository<PurchaseOrder, Long> {
}
