/** RabbitMQ classic and quorum queues on a running broker. */
package io.dbqueue.bench.driver.rabbitmq;
