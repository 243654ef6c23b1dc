/** Kafka: the broker (kafka-server's, started once per run) or an external one, and its topic read by consumer groups. */
package io.dbqueue.bench.driver.kafka;
