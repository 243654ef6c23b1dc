package io.dbqueue.queue;

/**
 * The LISTEN/NOTIFY channel of a queue table: {@code dbq_<table>}; the payload is the queue name.
 * Table names are validated identifiers of at most {@value Identifiers#MAX_TABLE_NAME_LENGTH}
 * characters, so the channel is a valid identifier within PostgreSQL's 63 bytes.
 */
final class WakeupChannel {

    private WakeupChannel() {
    }

    static String of(QueueTable table) {
        return "dbq_" + table.name();
    }
}
