package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.driver.Driver;

/** A driver whose cells run against the run's one Kafka broker ({@link KafkaSharedBroker}). */
interface SharedBrokerDriver extends Driver {

    @Override
    default String unavailableReason() {
        return KafkaSharedBroker.unavailableReason();
    }

    @Override
    default String server() {
        return KafkaSharedBroker.server();
    }
}
