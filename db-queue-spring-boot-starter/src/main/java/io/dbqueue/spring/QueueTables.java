package io.dbqueue.spring;

import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.QueueException;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** Makes sure every configured queue's tables exist at start-up: creates them per {@code dbq.initialize-schema}, or fails naming the property. */
final class QueueTables {

    private QueueTables() {
    }

    static void ensure(DataSource dataSource, Map<String, QueueConfig> configs, DatabaseInitializationMode mode) {
        ensure(dataSource, configs, mode, null);
    }

    /** As {@link #ensure(DataSource, Map, DatabaseInitializationMode)} on one of several databases, {@code shard} named in the errors. */
    static void ensure(DataSource dataSource, Map<String, QueueConfig> configs, DatabaseInitializationMode mode,
                       String shard) {
        String on = shard == null ? "" : " on " + shard;
        boolean create = mode == DatabaseInitializationMode.ALWAYS
                || mode == DatabaseInitializationMode.EMBEDDED && EmbeddedDatabaseConnection.isEmbedded(dataSource);
        Map<String, String> firstByTable = new HashMap<>();
        configs.forEach((id, config) -> {
            QueueTable table = config.location().table();
            String first = firstByTable.putIfAbsent(table.name(), id);
            if (first != null) {
                QueueTable other = configs.get(first).location().table();
                if (!other.layout().equals(table.layout())) {
                    throw new InvalidQueuePropertyException("dbq.queues." + id + ".layout: table '" + table.name()
                            + "' is also used by dbq.queues." + first + " with layout " + other.layout().name()
                            + ", not " + table.layout().name());
                }
                return;
            }
            try {
                if (create) {
                    Schema.createIfMissing(dataSource, table);
                } else if (!Schema.exists(dataSource, table)) {
                    throw new MissingQueueTableException("dbq.queues." + id + ".table: table '" + table.name()
                            + "' does not exist" + on + " (or its dead-letter table '" + table.deadLetterTable() + "' does not);"
                            + " create them with io/dbqueue/sql/" + table.layout().name() + ".sql (on the classpath;"
                            + " sql/ in the source) in a migration, or set dbq.initialize-schema=always");
                }
            } catch (InvalidValueException e) { // a layout the server is too old for
                throw InvalidQueuePropertyException.of("dbq.queues." + id, e);
            } catch (SQLException e) {
                throw new QueueException("could not check queue table " + table.name() + on + ": " + e.getMessage(), e);
            }
        });
        if (!create) {
            configs.forEach((id, config) -> ensureLimitTables(dataSource, id, config, on));
        }
    }

    /** A queue with limits needs its table's limit tables, which a schema made before limits lacks. */
    private static void ensureLimitTables(DataSource dataSource, String id, QueueConfig config, String on) {
        QueueTable table = config.location().table();
        try {
            if (config.limits().any() && !Schema.limitsExist(dataSource, table)) {
                throw new MissingQueueTableException("dbq.queues." + id + ": its rate-limit or max-in-flight needs the"
                        + " tables '" + table.limitsTable() + "' and '" + table.inFlightTable() + "'" + on + "; create them with"
                        + " their CREATE TABLE IF NOT EXISTS statements from io/dbqueue/sql/" + table.layout().name()
                        + ".sql in a migration, or set dbq.initialize-schema=always");
            }
            if (config.limits().maxPerKey() > 0 && !Schema.perKeyReady(dataSource, table)) {
                throw new MissingQueueTableException("dbq.queues." + id + ".per-key.max-in-flight: needs the column"
                        + " concurrency_key of '" + table.inFlightTable() + "' and headers of '" + table.name() + "'" + on
                        + ", which tables made before them lack; add them in a migration with: "
                        + Schema.perKeyMigration(table).trim() + " " + Schema.headersMigration(table).replace('\n', ' ').trim()
                        + " (or set dbq.initialize-schema=always)");
            }
        } catch (SQLException e) {
            throw new QueueException("could not check the limit tables of " + table.name() + on + ": " + e.getMessage(), e);
        }
    }
}
