/**
 * PostgreSQL's pgbench running the library's statements (the ceiling) and the minimal and study queues, in
 * processes of its own.
 */
package io.dbqueue.bench.driver.pgbench;
