package io.dbqueue.bench.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One consumer channel's deliveries, acknowledged by a thread of its own with one multiple ack once
 * {@code batchSize} are collected or no further delivery came for 1 ms, and then reported: waiting
 * for a full batch would hold a trickle's messages until the batch fills. The client's dispatch
 * thread only hands the deliveries over.
 */
final class RabbitMqAcknowledger extends DefaultConsumer implements AutoCloseable {

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private record Delivery(long tag, long stamp) {
    }

    private final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    private final int batchSize;
    private final Meter meter;
    private final AtomicReference<Throwable> failure;
    private final Thread thread;
    private volatile boolean running = true;

    RabbitMqAcknowledger(Channel channel, int batchSize, Meter meter, AtomicReference<Throwable> failure) {
        super(channel);
        this.batchSize = batchSize;
        this.meter = meter;
        this.failure = failure;
        this.thread = new Thread(this::acknowledge, "bench-rabbitmq-ack");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        deliveries.add(new Delivery(envelope.getDeliveryTag(),
                Payloads.stamp(new String(body, StandardCharsets.UTF_8))));
    }

    private void acknowledge() {
        long[] stamps = new long[batchSize];
        int collected = 0;
        long lastTag = 0;
        try {
            while (running) {
                Delivery delivery = collected == 0 ? deliveries.take() : deliveries.poll(PAUSE_NANOS, TimeUnit.NANOSECONDS);
                if (delivery != null) {
                    stamps[collected++] = delivery.stamp();
                    lastTag = delivery.tag();
                    if (collected < batchSize) {
                        continue;
                    }
                }
                getChannel().basicAck(lastTag, true);
                meter.processed(stamps, collected);
                collected = 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed
        } catch (IOException | RuntimeException e) {
            if (running) {
                failure.compareAndSet(null, e);
            }
        }
    }

    /** Stops acknowledging; what is collected but not acknowledged is redelivered to no one (the queue is deleted next). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }
}
