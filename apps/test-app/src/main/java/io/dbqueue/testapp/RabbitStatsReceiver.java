package io.dbqueue.testapp;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * Receives statistics over RabbitMQ when {@code RABBIT_HOST} is set, as the experiment did (queue
 * {@code dbq.stats} unless {@code RABBIT_STATS_QUEUE} says otherwise), but one AMQP message carries a
 * whole batch (a JSON array of {@link Stat}). A message is acknowledged after its statistics are
 * stored; one that cannot be stored is requeued, one that is not a batch of statistics is dropped.
 */
@Component
@ConditionalOnExpression("!'${rabbit.host:}'.isBlank()")
public class RabbitStatsReceiver {

    private static final TypeReference<List<Stat>> STATS = new TypeReference<>() {
    };

    private final Runs runs;
    private final ObjectMapper json;

    /** Declares the queue at once: a broker that cannot be reached fails the start, not the first run. */
    public RabbitStatsReceiver(Runs runs, ObjectMapper json, AmqpAdmin admin,
                               @Value("${rabbit.stats-queue:dbq.stats}") String queue) {
        this.runs = runs;
        this.json = json;
        admin.declareQueue(new Queue(queue, true));
    }

    @RabbitListener(queues = "${rabbit.stats-queue:dbq.stats}")
    void receive(Message message) {
        List<Stat> stats;
        try {
            stats = json.readValue(message.getBody(), STATS);
        } catch (RuntimeException e) {
            throw new AmqpRejectAndDontRequeueException("not a JSON array of statistics: " + e.getMessage(), e);
        }
        if (stats == null) {
            throw new AmqpRejectAndDontRequeueException("not a JSON array of statistics: null");
        }
        try {
            runs.record(stats);
        } catch (IllegalArgumentException e) { // the same report would be refused again
            throw new AmqpRejectAndDontRequeueException("statistics refused: " + e.getMessage(), e);
        }
    }
}
