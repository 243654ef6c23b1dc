package io.dbqueue.consumer;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;

/**
 * @param queueId the {@code dbq.queues.<id>} this consumer processes
 * @param stats   how statistics reach test-app
 * @param effects exactly once: whether each message's effect is counted in table consumer_effect, in
 *                the transaction that finishes it, so that duplicate effects can be counted
 */
@ConfigurationProperties("consumer")
public record ConsumerProperties(String queueId, Stats stats, boolean effects) {

    /**
     * @param testAppUrl where statistics are posted when no RabbitMQ is configured
     * @param batchSize  statistics per report at most (a single handler's batch is never split)
     */
    public record Stats(URI testAppUrl, int batchSize) {

        public Stats {
            if (batchSize < 1) {
                throw new IllegalArgumentException("consumer.stats.batch-size must be at least 1, was " + batchSize);
            }
        }
    }
}
