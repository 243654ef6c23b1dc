/**
 * db-queue's core: {@link io.dbqueue.DbQueue} is the front door; the exported packages hold what its
 * callers configure and receive. The LISTEN/NOTIFY plumbing (io.dbqueue.wakeup) and the JDBC helpers
 * (io.dbqueue.internal) are not exported.
 */
module io.dbqueue {
    requires transitive java.sql;
    requires org.postgresql.jdbc;
    requires org.slf4j;

    exports io.dbqueue;
    exports io.dbqueue.common;
    exports io.dbqueue.queue;
    exports io.dbqueue.log;
    exports io.dbqueue.schedule;
    exports io.dbqueue.maintenance;
    exports io.dbqueue.serverwatch;
}
