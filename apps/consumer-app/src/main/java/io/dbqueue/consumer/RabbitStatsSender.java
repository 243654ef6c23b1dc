package io.dbqueue.consumer;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import tools.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * Publishes each batch as one persistent AMQP message (a JSON array) to a durable queue
 * ({@code dbq.stats} unless {@code RABBIT_STATS_QUEUE} says otherwise), and waits for the broker's
 * confirm. The experiment sent one message per processed task; one per batch is what keeps the broker
 * off the critical path.
 */
final class RabbitStatsSender implements StatsSender {

    private static final long CONFIRM_TIMEOUT_MS = 30_000;

    private final RabbitTemplate rabbit;
    private final ObjectMapper json;
    private final String queue;

    /** Declares the queue at once: a broker that cannot be reached fails the start, not the first report. */
    RabbitStatsSender(RabbitTemplate rabbit, AmqpAdmin admin, String queue, ObjectMapper json) {
        this.rabbit = rabbit;
        this.json = json;
        this.queue = queue;
        admin.declareQueue(new Queue(queue, true));
    }

    @Override
    public void send(List<Stat> stats) {
        Message message = MessageBuilder.withBody(json.writeValueAsBytes(stats))
                .setContentType(MessageProperties.CONTENT_TYPE_JSON)
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT).build();
        rabbit.invoke(channel -> {
            channel.send("", queue, message);
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
            return null;
        });
    }

    @Override
    public String toString() {
        return "RabbitMQ " + rabbit.getConnectionFactory().getHost() + ":" + rabbit.getConnectionFactory().getPort()
                + " queue " + queue;
    }
}
