package io.dbqueue.queue;

import io.dbqueue.common.Identifiers;
import java.util.Objects;

/** Where a queue lives: a table and a queue name within it. */
public record QueueLocation(QueueTable table, String queueName) {

    public QueueLocation {
        Objects.requireNonNull(table, "table");
        Identifiers.queueName("queueName", queueName);
    }

    public static QueueLocation of(Layout layout, String queueName) {
        return new QueueLocation(QueueTable.of(layout), queueName);
    }

    @Override
    public String toString() {
        return table.name() + "/" + queueName;
    }
}
