package io.dbqueue.spring.health;

import io.dbqueue.spring.InvalidQueuePropertyException;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code dbq.health.*} properties: when the {@code dbQueue} health indicator reports a queue DOWN for what waits
 * in it. Unset, a queue is DOWN only when it cannot be read or its workers stopped.
 *
 * @param maxDeadLetters A queue is DOWN while more dead letters than this wait in its dead-letter table.
 * @param maxOldestAge   A queue is DOWN while its oldest due task is older than this.
 * @param queues         Thresholds of single queues, by queue id, in place of the two above; a threshold a queue
 *                       does not set is the one above.
 */
@ConfigurationProperties("dbq.health")
public record DbQueueHealthProperties(Long maxDeadLetters, Duration maxOldestAge, Map<String, Thresholds> queues) {

    public DbQueueHealthProperties {
        queues = queues == null ? Map.of() : queues;
    }

    /**
     * One queue's thresholds.
     *
     * @param maxDeadLetters The queue is DOWN while more dead letters than this wait in its dead-letter table.
     * @param maxOldestAge   The queue is DOWN while its oldest due task is older than this.
     */
    public record Thresholds(Long maxDeadLetters, Duration maxOldestAge) {

        static final Thresholds NONE = new Thresholds(null, null);

        /** These thresholds, each unset one taken from {@code defaults}. */
        Thresholds or(Thresholds defaults) {
            return new Thresholds(maxDeadLetters != null ? maxDeadLetters : defaults.maxDeadLetters,
                    maxOldestAge != null ? maxOldestAge : defaults.maxOldestAge);
        }

        void check(String prefix) {
            if (maxDeadLetters != null && maxDeadLetters < 0) {
                throw new InvalidQueuePropertyException(prefix + ".max-dead-letters must be at least 0, was "
                        + maxDeadLetters);
            }
            if (maxOldestAge != null && (maxOldestAge.isNegative() || maxOldestAge.isZero())) {
                throw new InvalidQueuePropertyException(prefix + ".max-oldest-age must be positive, was "
                        + maxOldestAge);
            }
        }
    }

    /** The thresholds of queue {@code id}. */
    Thresholds thresholds(String id) {
        return queues.getOrDefault(id, Thresholds.NONE).or(new Thresholds(maxDeadLetters, maxOldestAge));
    }

    /** Checks every value, and that {@link #queues} names configured queues only. */
    void check(Set<String> ids) {
        new Thresholds(maxDeadLetters, maxOldestAge).check("dbq.health");
        queues.forEach((id, thresholds) -> {
            if (!ids.contains(id)) {
                throw new InvalidQueuePropertyException("dbq.health.queues." + id + " names a queue that is not"
                        + " configured under dbq.queues (configured: " + ids + ")");
            }
            thresholds.check("dbq.health.queues." + id);
        });
    }
}
