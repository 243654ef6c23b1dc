package io.dbqueue.spring;

import io.dbqueue.QueueException;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** Makes sure every configured queue's table exists at start-up: creates it, or fails naming the property. */
final class QueueTables {

    private final DataSource dataSource;

    QueueTables(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    void ensure(QueueDefinitions definitions, boolean create) {
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
                            + "' does not); create both with sql/" + table.layout().name()
                            + ".sql or set dbq.create-tables=true");
                }
            } catch (SQLException e) {
                throw new QueueException("could not check queue table " + table.name() + ": " + e.getMessage(), e);
            }
        }
    }
}
