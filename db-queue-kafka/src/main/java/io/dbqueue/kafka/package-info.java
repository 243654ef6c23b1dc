/**
 * Relays a db-queue log topic to Kafka ({@link io.dbqueue.kafka.KafkaRelay}), so that consumers can
 * move to Kafka one at a time while producers keep writing to PostgreSQL.
 */
package io.dbqueue.kafka;
