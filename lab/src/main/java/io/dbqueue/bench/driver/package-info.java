/**
 * What a driver is (Driver, given a CellContext, returning a Repetition), the drivers by name, and what the
 * in-process drivers share: producers and their pacing, the measured window. The drivers live in a package per
 * family: postgres, pgbench, kafka, rabbitmq, nats.
 */
package io.dbqueue.bench.driver;
