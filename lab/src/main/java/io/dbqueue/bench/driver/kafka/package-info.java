/** Kafka: a broker in a process of its own, or an external one, and its topic read by consumer groups. */
package io.dbqueue.bench.driver.kafka;
