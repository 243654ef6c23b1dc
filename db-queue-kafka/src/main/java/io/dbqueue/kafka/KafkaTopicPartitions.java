package io.dbqueue.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads how many partitions a Kafka topic has with an admin client, which, unlike a producer's metadata request, never
 * has the broker create a missing topic.
 */
final class KafkaTopicPartitions {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private KafkaTopicPartitions() {
    }

    /**
     * The partitions of {@code kafkaTopic}, read with the producer's {@code settings} (its connection, security and
     * plugin settings: only the producer's own are left out).
     */
    static int of(Map<String, Object> settings, String kafkaTopic) {
        Admin admin = Admin.create(adminSettings(settings));
        try {
            return admin.describeTopics(List.of(kafkaTopic)).allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(kafkaTopic).partitions().size();
        } catch (ExecutionException e) {
            String why = e.getCause() instanceof UnknownTopicOrPartitionException ? "Kafka topic " + kafkaTopic
                    + " does not exist" : "the partitions of Kafka topic " + kafkaTopic + " could not be read: "
                    + e.getCause().getMessage();
            throw new RelayException(why, e.getCause());
        } catch (TimeoutException e) {
            throw new RelayException("the partitions of Kafka topic " + kafkaTopic + " could not be read within "
                    + TIMEOUT.toSeconds() + " s (is Kafka reachable at the producer's bootstrap.servers?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RelayException("interrupted while reading the partitions of Kafka topic " + kafkaTopic, e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /** The producer's settings without those only a producer knows: Kafka's admin client warns of each. */
    private static Map<String, Object> adminSettings(Map<String, Object> settings) {
        Set<String> producerOnly = new HashSet<>(ProducerConfig.configNames());
        producerOnly.removeAll(AdminClientConfig.configNames());
        Map<String, Object> admin = new HashMap<>(settings);
        admin.keySet().removeAll(producerOnly);
        return admin;
    }
}
