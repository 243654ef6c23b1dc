package io.dbqueue.bench.driver.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Env;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The same workload on RabbitMQ, for the question "do we need a broker": a durable queue,
 * persistent messages, publisher confirms per batch, and consumers with a prefetch of the consumer
 * batch that acknowledge what they got with one multiple ack once the batch is full or the
 * deliveries pause ({@link RabbitMqAcknowledger}). A message counts as processed when its
 * acknowledgement is sent. Publishers and consumers have a connection each, as separate services
 * would. {@code rabbitmq} declares a classic queue, {@code rabbitmq-quorum} a quorum queue (Raft
 * replicated, fsynced before it confirms; one node here). The broker comes from RABBIT_HOST,
 * RABBIT_PORT, RABBIT_USER, RABBIT_PASS (default 127.0.0.1:5672, guest/guest); when it is
 * unreachable, the cells are skipped.
 */
public final class RabbitMqDriver implements Driver {

    private static final long CONFIRM_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(30);
    /** RabbitMQ's server process: the Erlang VM. */
    private static final String ERLANG_VM = "beam.smp";

    private final ConnectionFactory factory = new ConnectionFactory();
    private volatile String server; // learnt by the probe
    private final DriverName name;
    private final String queue;
    private final Map<String, Object> queueArguments;

    private RabbitMqDriver(DriverName name, String queue, Map<String, Object> queueArguments) {
        this.name = name;
        this.queue = queue;
        this.queueArguments = queueArguments;
        factory.setHost(Env.or("RABBIT_HOST", "127.0.0.1"));
        factory.setPort(Integer.parseInt(Env.or("RABBIT_PORT", "5672")));
        factory.setUsername(Env.or("RABBIT_USER", "guest"));
        factory.setPassword(Env.or("RABBIT_PASS", "guest"));
        factory.setConnectionTimeout((int) TimeUnit.SECONDS.toMillis(3));
    }

    /** {@code rabbitmq}: a classic queue. */
    public static RabbitMqDriver classic() {
        return new RabbitMqDriver(DriverName.RABBITMQ, "dbq-bench", Map.of());
    }

    /** {@code rabbitmq-quorum}: a quorum queue. */
    public static RabbitMqDriver quorum() {
        return new RabbitMqDriver(DriverName.RABBITMQ_QUORUM, "dbq-bench-quorum", Map.of("x-queue-type", "quorum"));
    }

    @Override
    public DriverName name() {
        return name;
    }

    @Override
    public String server() {
        return server;
    }

    @Override
    public String unavailableReason() {
        try (Connection probe = factory.newConnection("bench-probe")) {
            server = "RabbitMQ " + probe.getServerProperties().get("version") + " at " + factory.getHost() + ":"
                    + factory.getPort();
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
        try (Connection consuming = factory.newConnection("bench-consumers");
             Connection publishing = factory.newConnection("bench-publishers")) {
            try (Channel admin = consuming.createChannel()) {
                admin.queueDelete(queue);
                admin.queueDeclare(queue, true, false, false, queueArguments);
            }
            return InProcessMeasurement.run(context, List.of(), 1, BrokerProcess.namedIfLocal(ERLANG_VM, Env.or("RABBIT_HOST", "127.0.0.1")), meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Consumers consumers = new Consumers(consuming, queue, workload.consumers(),
                        workload.claimBatch(batchSize), meter, failure);
                Producers producers = Producers.start(workload, batchSize, meter,
                        () -> new Publisher(publishing.createChannel(), queue), failure);
                return new Load(producers, consumers, failure);
            });
        }
    }

    /** Publishes a batch of persistent messages and waits for the broker to confirm them all. */
    private static final class Publisher implements Producers.Sender {
        private final Channel channel;
        private final String queue;

        Publisher(Channel channel, String queue) throws IOException {
            this.channel = channel;
            this.queue = queue;
            channel.confirmSelect();
        }

        @Override
        public void send(List<String> payloads) throws Exception {
            for (String payload : payloads) {
                channel.basicPublish("", queue, MessageProperties.PERSISTENT_TEXT_PLAIN,
                        payload.getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
        }

        @Override
        public void close() throws IOException, TimeoutException {
            channel.close();
        }
    }

    /** One channel per consumer, with a prefetch of the consumer batch. */
    private static final class Consumers implements AutoCloseable {
        private final List<Channel> channels = new ArrayList<>();
        private final List<RabbitMqAcknowledger> acknowledgers = new ArrayList<>();

        Consumers(Connection connection, String queue, int count, int batchSize, Meter meter,
                  AtomicReference<Throwable> failure) throws IOException {
            for (int i = 0; i < count; i++) {
                Channel channel = connection.createChannel();
                channel.basicQos(batchSize);
                RabbitMqAcknowledger acknowledger = new RabbitMqAcknowledger(channel, batchSize, meter, failure);
                acknowledgers.add(acknowledger);
                channels.add(channel);
                channel.basicConsume(queue, false, acknowledger);
            }
        }

        @Override
        public void close() throws IOException, TimeoutException, InterruptedException {
            for (RabbitMqAcknowledger acknowledger : acknowledgers) {
                acknowledger.close();
            }
            for (Channel channel : channels) {
                channel.close();
            }
        }
    }
}
