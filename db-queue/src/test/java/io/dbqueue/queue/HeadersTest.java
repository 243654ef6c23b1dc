package io.dbqueue.queue;

import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeadersTest {

    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Map<String, String> TRACE = Map.of("traceparent", "00-abc-def-01", "tenant", "a\"b");
    private final DataSource ds = TestDatabase.dataSource();

    static List<Layout> layouts() {
        return Layout.presets();
    }

    /** Every layout's claim, in every mode, hands out the headers a task was enqueued with, and none for the others. */
    @ParameterizedTest
    @MethodSource("layouts")
    void everyLayoutCarriesHeadersFromEnqueueToClaim(Layout layout) throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(layout).queue("q");
        QueueProducer producer = new QueueProducer(ds, queue);
        for (DeliveryMode mode : DeliveryMode.values()) {
            long with = producer.enqueue("with", TRACE);
            long without = producer.enqueue("without");
            long delayed = producer.enqueueAll(List.of("delayed"), List.of(TRACE), Duration.ofMillis(1)).get(0);
            TestDatabase.execute("UPDATE " + queue.table().name() + " SET next_process_at = now() - interval '1 s'");
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(mode != DeliveryMode.EXACTLY_ONCE);
                Map<Long, Map<String, String>> claimed = new java.util.HashMap<>();
                new TaskStore(queue).claim(c, 10, mode, LEASE).forEach(t -> claimed.put(t.id(), t.headers()));
                assertEquals(Map.of(with, TRACE, without, Map.of(), delayed, TRACE), claimed, mode.toString());
                if (mode == DeliveryMode.EXACTLY_ONCE) {
                    c.commit();
                }
            }
            new QueueMonitor(ds, queue).purge();
        }
    }

    /**
     * A row the application's own SQL wrote with headers that are no JSON object, or without a created_at, is handed
     * out (without headers; with no creation time). Its parse failed the claim after its commit: at most once the
     * whole batch was deleted unhandled, at least once it was leased again at every lease, and never dead-lettered.
     */
    @Test
    void aRowWrittenByHandWithBadHeadersOrNoCreationTimeIsHandedOut() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("q");
        QueueProducer producer = new QueueProducer(ds, queue);
        producer.enqueue("before", TRACE);
        String table = queue.table().name();
        TestDatabase.execute("INSERT INTO " + table + " (queue_name, payload, headers) VALUES ('q', 'null', 'null'),"
                + " ('q', 'array', '[1]'); INSERT INTO " + table + " (queue_name, payload, created_at) VALUES"
                + " ('q', 'no time', NULL)");
        producer.enqueue("after", TRACE);
        try (Connection c = ds.getConnection()) {
            List<Task> claimed = new TaskStore(queue).claim(c, 10, DeliveryMode.AT_MOST_ONCE, LEASE);
            assertEquals(List.of("before", "null", "array", "no time", "after"), claimed.stream().map(Task::payload).toList());
            assertEquals(List.of(TRACE, Map.of(), Map.of(), Map.of(), TRACE), claimed.stream().map(Task::headers).toList());
            assertEquals(null, claimed.get(3).createdAt());
        }
    }

    /**
     * An interceptor that fails after its enqueue committed (a span's end) leaves the enqueue's answer standing: it
     * threw the QueueException that means nothing was stored, and a caller that sent again stored the task twice.
     */
    @Test
    void anInterceptorThatFailsAfterItsEnqueueCommittedReturnsTheEnqueuesAnswer() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("q");
        QueueProducer producer = new QueueProducer(ds, queue).intercepted(new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                enqueue.proceed();
                throw new SQLException("the tracing backend is down");
            }
        });
        long id = producer.enqueue("stored once");
        assertEquals(id, new QueueMonitor(ds, queue).peek(1).get(0).id());
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + queue.table().name()));
    }

    @Test
    void peekPurgeDeadLettersAndRequeueKeepTheHeaders() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("q");
        QueueProducer producer = new QueueProducer(ds, queue);
        long id = producer.enqueue("doomed", TRACE);
        QueueMonitor monitor = new QueueMonitor(ds, queue);
        assertEquals(TRACE, monitor.peek(1).get(0).headers());
        try (Connection c = ds.getConnection()) {
            TaskStore store = new TaskStore(queue);
            Task task = store.claim(c, 1, DeliveryMode.AT_LEAST_ONCE, LEASE).get(0);
            store.deadLetter(c, Map.of(task, "boom"));
        }
        DeadLetters dead = new DeadLetters(ds, queue);
        DeadTask deadTask = dead.list(0, 10).get(0);
        assertEquals(id, deadTask.id());
        assertEquals(TRACE, deadTask.headers());
        assertEquals(1, dead.requeueAll());
        assertEquals(TRACE, monitor.purge().get(0).headers());
    }

    @Test
    void anInterceptorsHeadersGoOnEveryTaskOverTheTasksOwn() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("q");
        AtomicInteger calls = new AtomicInteger();
        EnqueueInterceptor interceptor = new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                calls.incrementAndGet();
                headers.put("traceparent", "from-interceptor-" + tasks);
                return enqueue.proceed();
            }
        };
        QueueProducer producer = new QueueProducer(ds, queue).intercepted(interceptor);
        producer.enqueue("plain");
        producer.enqueueAll(List.of("own", "none"), List.of(TRACE, Map.of()), Duration.ZERO);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            producer.enqueue(c, "in caller's transaction");
            c.commit();
        }
        assertEquals(3, calls.get());
        List<Map<String, String>> headers = new QueueMonitor(ds, queue).peek(10).stream().map(Task::headers).toList();
        assertEquals(List.of(Map.of("traceparent", "from-interceptor-1"),
                Map.of("traceparent", "from-interceptor-2", "tenant", "a\"b"),
                Map.of("traceparent", "from-interceptor-2"),
                Map.of("traceparent", "from-interceptor-1")), headers);
    }

    /**
     * Keyed enqueues run through the interceptor too, on every layout: the new task of each uniqueness mode carries
     * its headers (own transaction and the caller's), and a repeat that replaces a waiting task gives it the
     * repeat's; a repeat answered with the first task leaves that task's headers as they were.
     */
    @ParameterizedTest
    @MethodSource("layouts")
    void keyedEnqueuesCarryTheInterceptorsHeaders(Layout layout) throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(layout).queue("q");
        AtomicInteger calls = new AtomicInteger();
        QueueProducer producer = new QueueProducer(ds, queue).intercepted(new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                headers.put("traceparent", "call-" + calls.incrementAndGet());
                return enqueue.proceed();
            }
        });
        long first = producer.enqueueOnce("k-window", "first").id();
        assertEquals(first, producer.enqueueOnce("k-window", "repeat").id());
        long delayed = producer.enqueueOnce("k-delayed", "delayed", Duration.ofMillis(1), Uniqueness.WINDOW).id();
        long debounced = producer.enqueueOnce("k-debounce", "before", Duration.ZERO, Uniqueness.DEBOUNCE).id();
        assertTrue(producer.enqueueOnce("k-debounce", "after", Duration.ZERO, Uniqueness.DEBOUNCE).replaced());
        long joined;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            joined = producer.enqueueAllOnce(c, List.of("k-joined"), List.of("joined"), Duration.ZERO).get(0).id();
            c.commit();
        }
        Map<Long, Map<String, String>> headers = new java.util.HashMap<>();
        new QueueMonitor(ds, queue).peek(10).forEach(t -> headers.put(t.id(), t.headers()));
        assertEquals(Map.of(first, Map.of("traceparent", "call-1"), delayed, Map.of("traceparent", "call-3"),
                debounced, Map.of("traceparent", "call-5"), joined, Map.of("traceparent", "call-6")), headers);
    }

    /** Prioritized enqueues run through the interceptor, on every layout with priorities. */
    @Test
    void prioritizedEnqueuesCarryTheInterceptorsHeaders() throws SQLException {
        for (Layout layout : Layout.presets().stream().filter(Layout::priorities).filter(TestDatabase::supports).toList()) {
            QueueLocation queue = TestDatabase.freshTable(layout).queue("q");
            QueueProducer producer = new QueueProducer(ds, queue).intercepted(new EnqueueInterceptor() {
                @Override
                public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                        throws SQLException {
                    headers.put("traceparent", "prioritized-" + tasks);
                    return enqueue.proceed();
                }
            });
            producer.enqueue("urgent", 5);
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                producer.enqueueAll(c, List.of("a", "b"), Duration.ZERO, 1);
                c.commit();
            }
            assertEquals(List.of(Map.of("traceparent", "prioritized-1"), Map.of("traceparent", "prioritized-2"),
                    Map.of("traceparent", "prioritized-2")), new QueueMonitor(ds, queue).peek(10).stream()
                    .map(Task::headers).toList(), layout.name());
        }
    }

    @Test
    void aDoorsProducersRunItsInterceptor() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("q");
        EnqueueInterceptor interceptor = new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                headers.put("queue", q.queueName());
                return enqueue.proceed();
            }
        };
        EnqueueInterceptor tracing = new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                headers.put("traceparent", "inner-after-" + headers.get("queue"));
                return enqueue.proceed();
            }
        };
        // a second interceptor (a tracing starter's) nests inside the first instead of replacing it
        try (DbQueue dbq = DbQueue.builder(ds).enqueueInterceptor(interceptor).enqueueInterceptor(tracing).build()) {
            dbq.producer(queue).enqueue("x");
        }
        assertEquals(Map.of("queue", "q", "traceparent", "inner-after-q"),
                new QueueMonitor(ds, queue).peek(1).get(0).headers());
    }

    /**
     * A table created before headers: tasks flow without them, given headers fail naming the migration, an
     * interceptor's are dropped, and createIfMissing adds the column to it and its dead letters.
     */
    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class)
    void aTableWithoutTheColumnRunsWithoutHeadersUntilCreateIfMissingAddsIt(DeliveryMode mode) throws SQLException {
        QueueTable table = new QueueTable("no_headers_" + mode.name().toLowerCase(), Layout.DBQ_SEQ_PK);
        Schema.recreate(ds, table);
        TestDatabase.execute("ALTER TABLE " + table.name() + " DROP COLUMN headers; ALTER TABLE "
                + table.deadLetterTable() + " DROP COLUMN headers");
        QueueLocation queue = table.queue("q");
        QueueProducer producer = new QueueProducer(ds, queue).intercepted(new EnqueueInterceptor() {
            @Override
            public <T> T around(QueueLocation q, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                    throws SQLException {
                headers.put("dropped", "yes");
                return enqueue.proceed();
            }
        });
        producer.enqueue("no headers");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> producer.enqueue("x", TRACE));
        assertTrue(e.getMessage().contains("Schema.headersMigration"), e.getMessage());
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(mode != DeliveryMode.EXACTLY_ONCE);
            Task task = new TaskStore(queue).claim(c, 10, mode, LEASE).get(0);
            assertEquals(Map.of(), task.headers());
            if (mode != DeliveryMode.AT_MOST_ONCE) {
                new TaskStore(queue).deadLetter(c, Map.of(task, "boom"));
            }
            if (mode == DeliveryMode.EXACTLY_ONCE) {
                c.commit();
            }
        }
        DeadLetters dead = new DeadLetters(ds, queue);
        assertEquals(mode == DeliveryMode.AT_MOST_ONCE ? 0 : 1, dead.list(0, 10).size());
        dead.requeueAll();
        Schema.createIfMissing(ds, table);
        new QueueProducer(ds, queue).enqueue("after", TRACE);
        assertEquals(TRACE, new QueueMonitor(ds, queue).peek(10).stream().filter(t -> t.payload().equals("after"))
                .findFirst().orElseThrow().headers());
    }
}
