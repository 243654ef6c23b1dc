package io.dbqueue.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** Reads a Kafka topic's effective max.message.bytes (its own, or the broker's default) with an admin client. */
final class TopicMessageSize {

    private TopicMessageSize() {
    }

    /**
     * The largest record batch the broker takes for {@code kafkaTopic}, read with the connection and security
     * settings among the producer's {@code settings}.
     */
    static int of(Map<String, Object> settings, String kafkaTopic) {
        Map<String, Object> adminSettings = new HashMap<>(settings);
        adminSettings.keySet().retainAll(AdminClientConfig.configNames());
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, kafkaTopic);
        try (Admin admin = Admin.create(adminSettings)) {
            ConfigEntry entry = admin.describeConfigs(List.of(resource)).all().get().get(resource)
                    .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            return Integer.parseInt(entry.value());
        } catch (ExecutionException e) {
            throw new RelayException("the configuration of Kafka topic " + kafkaTopic + " could not be read (does it "
                    + "exist?): " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RelayException("interrupted while reading the configuration of Kafka topic " + kafkaTopic, e);
        }
    }
}
