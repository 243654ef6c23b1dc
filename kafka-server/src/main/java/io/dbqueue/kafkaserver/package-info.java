/** A one-node Kafka broker (KRaft) in a process of its own, for the lab and for tests. */
package io.dbqueue.kafkaserver;
