package io.dbqueue.producer;

import io.dbqueue.queue.QueueProducer;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param queueId          the {@code dbq.queues.<id>} the messages go to
 * @param maxBodyBytes     larger request bodies are refused with 400
 * @param maxBatchMessages {@code POST /batch} takes at most this many messages, at most the library's largest batch
 */
@ConfigurationProperties("producer")
public record ProducerProperties(String queueId, int maxBodyBytes, int maxBatchMessages) {

    public ProducerProperties {
        if (queueId == null || queueId.isBlank()) {
            throw new IllegalArgumentException("producer.queue-id must be set");
        }
        atLeastOne("producer.max-body-bytes", maxBodyBytes);
        atLeastOne("producer.max-batch-messages", maxBatchMessages);
        if (maxBatchMessages > QueueProducer.MAX_BATCH_SIZE) { // else every batch over it would be a 503 "retry later"
            throw new IllegalArgumentException("producer.max-batch-messages must be at most "
                    + QueueProducer.MAX_BATCH_SIZE + " (the largest batch one enqueue writes), was " + maxBatchMessages);
        }
    }

    private static void atLeastOne(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was " + value);
        }
    }
}
