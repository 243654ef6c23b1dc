/** The library and its own SQL on PostgreSQL: the direct queue, the log, the raw statements, the stack of services. */
package io.dbqueue.bench.driver.postgres;
