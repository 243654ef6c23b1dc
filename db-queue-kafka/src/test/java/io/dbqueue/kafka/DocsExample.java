package io.dbqueue.kafka;

import io.dbqueue.DbQueue;
import io.dbqueue.log.GroupConfig;

import java.util.Map;

/** docs/log.md's relay example, between its region markers; {@link DocsExampleTest} compiles and runs it. */
final class DocsExample {

    private DocsExample() {
    }

    static KafkaRelay relayOrders(DbQueue dbq, String kafkaServers) {
        // docs: relay
        KafkaRelay relay = KafkaRelay.start(dbq, GroupConfig.of("orders", "kafka-relay"), "orders",
                Map.of("bootstrap.servers", kafkaServers));                 // a member of the group "kafka-relay"
        dbq.topicProducer("orders").send("customer-42", "{\"order\": 42}"); // Kafka: same partition, same key
        // docs: end
        return relay;
    }
}
