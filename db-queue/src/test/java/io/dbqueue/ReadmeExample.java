package io.dbqueue;

import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import io.dbqueue.queue.Task;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * README.md's Java example, compiled and run by {@link ReadmeExampleTest}: the lines between a
 * {@code // README:} marker and {@code // README: end} are the README's blocks, without their indent.
 */
final class ReadmeExample {

    /** Tasks due at once in {@link #queue}: one, the batch's three, the outbox's one. */
    static final int DUE_TASKS = 5;

    private final DataSource dataSource;
    private final List<String> payloads = List.of("{\"order\": 1}", "{\"order\": 2}", "{\"order\": 3}");
    private final String order = "42";
    final List<String> processed = new CopyOnWriteArrayList<>();
    final List<String> billed = new CopyOnWriteArrayList<>();

    ReadmeExample(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @SuppressWarnings("unused") // the example shows what the calls return
    void queue() throws Exception {
        // README: queue
        Schema.createIfMissing(dataSource, QueueTable.of(Layout.DBQ_SEQ));    // safe when several instances start at once
        QueueLocation orders = QueueLocation.of(Layout.DBQ_SEQ, "orders");      // table dbq_seq, queue "orders"

        try (DbQueue dbq = DbQueue.builder(dataSource).build()) {               // one per application
            QueueProducer producer = dbq.producer(orders);
            long id = producer.enqueue("{\"order\": 42}");                      // one task, committed
            List<Long> ids = producer.enqueueAll(payloads);                      // a batch: ONE statement, one commit
            producer.enqueue("{\"remind\": 42}", Duration.ofMinutes(10));        // due in 10 minutes

            try (Connection c = dataSource.getConnection()) {                    // transactional outbox:
                c.setAutoCommit(false);                                          // the task exists if and only if
                insertOrder(c, order);                                           // the caller's own changes commit
                producer.enqueue(c, "{\"order\": 42}");
                c.commit();
            }

            dbq.consume(QueueConfig.of(orders).withThreads(4), batch -> {
                for (Task task : batch.tasks()) {
                    if (!process(task)) {
                        batch.fail(task, "payment service said no");   // retry per the policy, dead-letter when exhausted
                    }                                                  // unanswered tasks are finished (deleted) on return
                }
            });
            runUntilShutdown();
        }   // stops claiming, lets batches in progress finish, then stops wakeups, vacuum and the rest
        // README: end
    }

    void log(DbQueue dbq) throws Exception {
        // README: log
        LogSchema.create(dataSource, Topic.of("events", 4));
        dbq.topicProducer("events").send("customer-42", "{\"order\": 42}");   // the key's hash picks the partition
        dbq.consumeTopic(GroupConfig.of("events", "billing"),
                batch -> batch.records().forEach(r -> bill(r.payload())));      // returning commits the group's offset
        // README: end
        Await.until(Duration.ofSeconds(30), "the event billed", () -> billed.size() == 1);
    }

    private static void insertOrder(Connection c, String order) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS readme_orders (id text)");
            st.execute("INSERT INTO readme_orders VALUES ('" + order + "')");
        }
    }

    private boolean process(Task task) {
        processed.add(task.payload());
        return true;
    }

    private void bill(String payload) {
        billed.add(payload);
    }

    /** The application's life: here until the tasks due at once are processed. */
    private void runUntilShutdown() throws Exception {
        Await.until(Duration.ofSeconds(30), "the tasks due at once processed", () -> processed.size() == DUE_TASKS);
    }
}
