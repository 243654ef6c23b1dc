package io.dbqueue.testapp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Receives statistics over RabbitMQ when {@code RABBIT_HOST} is set, as the experiment did (queue
 * {@code dbq.stats} unless {@code RABBIT_STATS_QUEUE} says otherwise), but
 * one AMQP message carries a whole batch (a JSON array of {@link Stat}). A message is acknowledged
 * after its statistics are stored; one that cannot be stored is requeued.
 */
@Component
@ConditionalOnExpression("!'${rabbit.host:}'.isBlank()")
public class RabbitStatsReceiver implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(RabbitStatsReceiver.class);
    private static final TypeReference<List<Stat>> STATS = new TypeReference<>() {
    };

    private final ConnectionFactory factory = new ConnectionFactory();
    private final Runs runs;
    private final ObjectMapper json;
    private final String queue;
    private Connection connection;

    public RabbitStatsReceiver(Runs runs, ObjectMapper json, @Value("${rabbit.host}") String host,
                               @Value("${rabbit.port:5672}") int port, @Value("${rabbit.user:guest}") String user,
                               @Value("${rabbit.pass:guest}") String password,
                               @Value("${rabbit.stats-queue:dbq.stats}") String queue) {
        this.queue = queue;
        this.runs = runs;
        this.json = json;
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(user);
        factory.setPassword(password);
    }

    @Override
    public synchronized void start() {
        try {
            connection = factory.newConnection("test-app");
            Channel channel = connection.createChannel();
            channel.queueDeclare(queue, true, false, false, null);
            channel.basicQos(16);
            channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body)
                        throws IOException {
                    receive(channel, envelope.getDeliveryTag(), body);
                }
            });
            LOG.info("receiving statistics from RabbitMQ {}:{} queue {}", factory.getHost(), factory.getPort(), queue);
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException("cannot consume statistics from RabbitMQ at " + factory.getHost() + ":"
                    + factory.getPort() + ": " + e.getMessage(), e);
        }
    }

    private void receive(Channel channel, long tag, byte[] body) throws IOException {
        List<Stat> stats;
        try {
            stats = json.readValue(body, STATS);
        } catch (RuntimeException e) {
            LOG.error("dropping a statistics message that is not a JSON array of statistics: {}", e.getMessage());
            channel.basicReject(tag, false);
            return;
        }
        try {
            runs.record(stats);
            channel.basicAck(tag, false);
        } catch (RuntimeException e) {
            LOG.warn("could not store {} statistics, requeueing them: {}", stats.size(), e.toString());
            channel.basicNack(tag, false, true);
        }
    }

    @Override
    public synchronized void stop() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            connection = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return connection != null;
    }
}
