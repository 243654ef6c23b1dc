/** NATS JetStream work queue on a running server. */
package io.dbqueue.bench.driver.nats;
