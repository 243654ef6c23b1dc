package io.dbqueue.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Reads a Kafka topic's effective max.message.bytes (its own, or the broker's default) with an admin client. */
final class TopicMessageSize {

    private static final Logger LOG = LoggerFactory.getLogger(TopicMessageSize.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicMessageSize() {
    }

    /**
     * The largest record batch the broker takes for {@code kafkaTopic}, read with the producer's {@code settings}
     * (its connection, security and plugin settings: only the producer's own are left out); empty, with a warning,
     * where the relay's principal may not describe the topic's configuration.
     */
    static OptionalInt of(Map<String, Object> settings, String kafkaTopic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, kafkaTopic);
        Admin admin = Admin.create(adminSettings(settings));
        try {
            String value = admin.describeConfigs(List.of(resource)).all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(resource)
                    .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value();
            return OptionalInt.of(Integer.parseInt(value));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                LOG.warn("The relay may not describe the configuration of Kafka topic {} (DescribeConfigs), so it "
                        + "cannot check that the producer's max.request.size is at most the topic's max.message.bytes;"
                        + " keep it so, or a record the broker refuses can let the records after it through first",
                        kafkaTopic);
                return OptionalInt.empty();
            }
            String why = e.getCause() instanceof UnknownTopicOrPartitionException ? "Kafka topic " + kafkaTopic
                    + " does not exist" : "the configuration of Kafka topic " + kafkaTopic + " could not be read: "
                    + e.getCause().getMessage();
            throw new RelayException(why, e.getCause());
        } catch (TimeoutException e) {
            throw new RelayException("the configuration of Kafka topic " + kafkaTopic + " could not be read within "
                    + TIMEOUT.toSeconds() + " s (is Kafka reachable at the producer's bootstrap.servers?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RelayException("interrupted while reading the configuration of Kafka topic " + kafkaTopic, e);
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
