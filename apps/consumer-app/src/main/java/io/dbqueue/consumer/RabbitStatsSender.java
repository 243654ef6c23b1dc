package io.dbqueue.consumer;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import tools.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * Publishes each batch as one persistent AMQP message (a JSON array) to a durable queue
 * ({@code dbq.stats} unless {@code RABBIT_STATS_QUEUE} says otherwise), and waits for the broker's confirm. The experiment sent one message per
 * processed task; one per batch is what keeps the broker off the critical path.
 */
final class RabbitStatsSender implements StatsSender {

    private final Connection connection;
    private final Channel channel;
    private final ObjectMapper json;
    private final String queue;
    private final String address;

    RabbitStatsSender(ConnectionFactory factory, String queue, ObjectMapper json) throws Exception {
        this.queue = queue;
        this.address = factory.getHost() + ":" + factory.getPort();
        this.connection = factory.newConnection("consumer-app");
        this.channel = connection.createChannel();
        channel.queueDeclare(queue, true, false, false, null);
        channel.confirmSelect();
        this.json = json;
    }

    @Override
    public synchronized void send(List<Stat> stats) throws Exception {
        channel.basicPublish("", queue, MessageProperties.PERSISTENT_BASIC, json.writeValueAsBytes(stats));
        channel.waitForConfirmsOrDie(30_000);
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }

    @Override
    public String toString() {
        return "RabbitMQ " + address + " queue " + queue;
    }
}
