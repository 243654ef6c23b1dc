package io.dbqueue.queue;

import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.stream.Stream;

/**
 * A contract suite run once per layout preset: each test gets a fresh table of the layout, a door on it,
 * and one queue ({@link #queueName()}) with its producer and admin; the door is closed after the test.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("layouts")
abstract class EveryLayout {

    @Parameter
    Layout layout;

    final DataSource ds = TestDatabase.dataSource();
    QueueTable table;
    QueueLocation queue;
    DbQueue dbq;
    QueueProducer producer;
    QueueAdmin admin;

    static Stream<Layout> layouts() {
        return Layout.presets().stream();
    }

    /** The queue the test uses on the fresh table. */
    abstract String queueName();

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(layout);
        queue = table.queue(queueName());
        dbq = DbQueue.builder(ds).build();
        producer = dbq.producer(queue);
        admin = dbq.queueAdmin(queue);
    }

    @AfterEach
    void closeDoor() {
        if (dbq != null) { // null: the layout was skipped before the door opened
            dbq.close();
        }
    }
}
