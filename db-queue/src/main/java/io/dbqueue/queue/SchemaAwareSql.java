package io.dbqueue.queue;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The statements of a queue table as its columns allow: with its {@code headers} column, or without on a table
 * created before headers existed ({@link Schema#headersMigration}); with priorities kept in its dead letters, or not
 * on one created before they were ({@link Schema#deadPriorityMigration}). Which, is asked of the database once, at
 * first use, on the connection at hand.
 */
final class SchemaAwareSql {

    private final QueueTable table;
    private volatile QueueSql sql; // null until first asked

    SchemaAwareSql(QueueTable table) {
        this.table = table;
    }

    QueueSql on(Connection c) throws SQLException {
        QueueSql known = sql;
        if (known == null) {
            known = new QueueSql(table, Schema.hasHeaders(c, table), Schema.deadLettersKeepPriority(c, table));
            sql = known;
        }
        return known;
    }
}
