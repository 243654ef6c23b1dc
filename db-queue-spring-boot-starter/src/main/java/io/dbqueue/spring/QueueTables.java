package io.dbqueue.spring;

import io.dbqueue.common.QueueException;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes sure every configured queue's tables exist at start-up: creates them per
 * {@code dbq.initialize-schema}, or fails naming the property.
 */
final class QueueTables {

    private final DataSource dataSource;

    QueueTables(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    void ensure(QueueDefinitions definitions, DatabaseInitializationMode mode) {
        boolean create = mode == DatabaseInitializationMode.ALWAYS
                || mode == DatabaseInitializationMode.EMBEDDED && EmbeddedDatabaseConnection.isEmbedded(dataSource);
        Map<String, QueueDefinition> checked = new HashMap<>();
        for (QueueDefinition definition : definitions.all()) {
            QueueTable table = definition.location().table();
            QueueDefinition first = checked.putIfAbsent(table.name(), definition);
            if (first != null) {
                if (!first.location().table().layout().equals(table.layout())) {
                    throw new InvalidQueuePropertyException("dbq.queues." + definition.id() + ".layout: table '"
                            + table.name() + "' is also used by dbq.queues." + first.id() + " with layout "
                            + first.location().table().layout().name() + ", not " + table.layout().name());
                }
                continue;
            }
            try {
                if (create) {
                    Schema.createIfMissing(dataSource, table);
                } else if (!Schema.exists(dataSource, table)) {
                    throw new InvalidQueuePropertyException("dbq.queues." + definition.id() + ".table: table '"
                            + table.name() + "' does not exist (or its dead-letter table '" + table.deadLetterTable()
                            + "' does not); create them with io/dbqueue/sql/" + table.layout().name()
                            + ".sql (on the classpath; sql/ in the source) in a migration, or set"
                            + " dbq.initialize-schema=always");
                }
            } catch (SQLException e) {
                throw new QueueException("could not check queue table " + table.name() + ": " + e.getMessage(), e);
            }
        }
    }
}
