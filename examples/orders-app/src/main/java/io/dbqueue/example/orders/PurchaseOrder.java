package io.dbqueue.example.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order as the shop stores it. */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {

    public enum Status { PLACED, SHIPPED }

    @Id
    @GeneratedValue
    private Long id;
    private String item;
    private int quantity;
    private Status status = Status.PLACED;

    protected PurchaseOrder() {
    }

    PurchaseOrder(String item, int quantity) {
        this.item = item;
        this.quantity = quantity;
    }

    public Long getId() {
        return id;
    }

    public String getItem() {
        return item;
    }

    public int getQuantity() {
        return quantity;
    }

    public Status getStatus() {
        return status;
    }

    void ship() {
        status = Status.SHIPPED;
    }
}
