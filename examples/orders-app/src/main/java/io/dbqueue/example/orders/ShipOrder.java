package io.dbqueue.example.orders;

/** The shipping queue's message: written as JSON into the task's payload. */
public record ShipOrder(long orderId, String item, int quantity) {
}
