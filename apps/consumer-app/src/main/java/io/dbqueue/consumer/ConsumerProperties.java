package io.dbqueue.consumer;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;
import java.time.Duration;

/**
 * @param queueId the {@code dbq.queues.<id>} this consumer processes
 * @param stats   how statistics reach test-app
 */
@ConfigurationProperties("consumer")
public record ConsumerProperties(String queueId, Stats stats) {

    /**
     * @param testAppUrl    where statistics are posted when no RabbitMQ is configured
     * @param batchSize     statistics per report at most
     * @param flushInterval a report is sent at least this often while statistics are waiting
     */
    public record Stats(URI testAppUrl, int batchSize, Duration flushInterval) {

        public Stats {
            if (batchSize < 1) {
                throw new IllegalArgumentException("consumer.stats.batch-size must be at least 1, was " + batchSize);
            }
            if (flushInterval == null || flushInterval.isNegative() || flushInterval.isZero()) {
                throw new IllegalArgumentException("consumer.stats.flush-interval must be positive, was " + flushInterval);
            }
        }
    }
}
