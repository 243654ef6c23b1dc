package io.dbqueue.bench.driver;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.MessageProperties;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.run.CellContext;
import io.dbqueue.bench.run.Repetition;
import io.dbqueue.bench.workload.Workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The same workload on RabbitMQ, for the question "do we need a broker": a durable queue,
 * persistent messages, publisher confirms per batch, and consumers with a prefetch of one batch
 * that acknowledge a whole batch at once (multiple). A message counts as processed when its
 * acknowledgement is sent. The broker comes from RABBIT_HOST, RABBIT_PORT, RABBIT_USER, RABBIT_PASS
 * (default 127.0.0.1:5672, guest/guest); when it is unreachable, the cells are skipped.
 */
public final class RabbitMqDriver implements Driver {

    private static final String QUEUE = "dbq-bench";
    private static final long CONFIRM_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private final ConnectionFactory factory = new ConnectionFactory();

    public RabbitMqDriver() {
        factory.setHost(Env.or("RABBIT_HOST", "127.0.0.1"));
        factory.setPort(Integer.parseInt(Env.or("RABBIT_PORT", "5672")));
        factory.setUsername(Env.or("RABBIT_USER", "guest"));
        factory.setPassword(Env.or("RABBIT_PASS", "guest"));
        factory.setConnectionTimeout((int) TimeUnit.SECONDS.toMillis(3));
    }

    @Override
    public String name() {
        return "rabbitmq";
    }

    @Override
    public String unavailableReason() {
        try (Connection ignored = factory.newConnection("bench-probe")) {
            return null;
        } catch (IOException | TimeoutException e) {
            return "RabbitMQ is not reachable at " + factory.getHost() + ":" + factory.getPort() + " ("
                    + e.getMessage() + "); set RABBIT_HOST, RABBIT_PORT, RABBIT_USER, RABBIT_PASS";
        }
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        int batchSize = context.cell().batchSize();
        try (Connection connection = factory.newConnection("bench")) {
            try (Channel admin = connection.createChannel()) {
                admin.queueDelete(QUEUE);
                admin.queueDeclare(QUEUE, true, false, false, null);
            }
            return InProcessMeasurement.run(context, meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Consumers consumers = new Consumers(connection, workload.consumers(), workload.claimBatch(batchSize),
                        meter);
                Producers producers = Producers.start(workload, batchSize, meter,
                        () -> new Publisher(connection.createChannel()), failure);
                return new Load(producers, consumers, failure);
            });
        }
    }

    /** Publishes a batch of persistent messages and waits for the broker to confirm them all. */
    private static final class Publisher implements Producers.Sender {
        private final Channel channel;

        Publisher(Channel channel) throws IOException {
            this.channel = channel;
            channel.confirmSelect();
        }

        @Override
        public void send(List<String> payloads) throws Exception {
            for (String payload : payloads) {
                channel.basicPublish("", QUEUE, MessageProperties.PERSISTENT_TEXT_PLAIN,
                        payload.getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
        }

        @Override
        public void close() throws IOException, TimeoutException {
            channel.close();
        }
    }

    /** One channel per consumer; each acknowledges every batch-size deliveries at once. */
    private static final class Consumers implements AutoCloseable {
        private final List<Channel> channels = new ArrayList<>();

        Consumers(Connection connection, int count, int batchSize, Meter meter) throws IOException {
            for (int i = 0; i < count; i++) {
                Channel channel = connection.createChannel();
                channel.basicQos(batchSize);
                channel.basicConsume(QUEUE, false, new BatchAcknowledger(channel, batchSize, meter));
                channels.add(channel);
            }
        }

        @Override
        public void close() throws IOException, TimeoutException {
            for (Channel channel : channels) {
                channel.close();
            }
        }
    }

    /** Collects a consumer's deliveries; a full batch is acknowledged with one multiple ack and reported. */
    private static final class BatchAcknowledger extends DefaultConsumer {
        private final int batchSize;
        private final Meter meter;
        private final long[] stamps;
        private int collected;

        BatchAcknowledger(Channel channel, int batchSize, Meter meter) {
            super(channel);
            this.batchSize = batchSize;
            this.meter = meter;
            this.stamps = new long[batchSize];
        }

        @Override
        public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException {
            stamps[collected++] = Payloads.stamp(new String(body, StandardCharsets.UTF_8));
            if (collected == batchSize) {
                getChannel().basicAck(envelope.getDeliveryTag(), true);
                meter.processed(stamps, collected);
                collected = 0;
            }
        }
    }
}
