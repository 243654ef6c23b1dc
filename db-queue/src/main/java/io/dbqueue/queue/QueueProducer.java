package io.dbqueue.queue;

import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.wakeup.ListenerPresence;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Puts tasks into one queue. A batch is a single INSERT of unnested arrays: one statement, one
 * round trip, one commit. The methods taking a {@link Connection} write in the caller's transaction
 * and neither commit nor roll back, so a task is enqueued if and only if the caller's own changes
 * commit (transactional outbox). The others commit on a connection of their own, unless the calling
 * thread is in a transaction the producer's {@link Transactions} finds (the Spring Boot starter's
 * find Spring's): then they join it, as the methods taking a connection do. Thread-safe.
 *
 * <p>The {@code ...Once} methods take an idempotency key per task: a key seen before (in this
 * queue, within the keys' retention, see {@link IdempotencyKeys}) stores nothing and answers with
 * the first task's id, so a client that got no answer can send the same request again. A batch is
 * still one statement, and a key repeated within one batch is one task.
 */
public final class QueueProducer {

    /**
     * The answer to an enqueue with an idempotency key.
     *
     * @param id     the task's id: this call's, or the first task's with the same key
     * @param stored whether this call stored the task; false when the key had been enqueued before
     */
    public record Enqueued(long id, boolean stored) {
    }

    public static final int MAX_BATCH_SIZE = 100_000;

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueListener listener;
    private final QueueNotifier notifier; // null: no wakeups
    private final QueueListener notified; // the notifier as a listener, its failures logged, never the caller's
    private final QueueSql sql;
    private final Transactions transactions;

    public QueueProducer(DataSource dataSource, QueueLocation location) {
        this(dataSource, location, QueueListener.NONE);
    }

    public QueueProducer(DataSource dataSource, QueueLocation location, QueueListener listener) {
        this(dataSource, location, listener, Transactions.JDBC);
    }

    /** A producer whose enqueues without a connection join the transaction {@code transactions} finds, if any. */
    public QueueProducer(DataSource dataSource, QueueLocation location, QueueListener listener,
                         Transactions transactions) {
        this(dataSource, location, listener, transactions, null);
    }

    /**
     * As {@link #QueueProducer(DataSource, QueueLocation, QueueListener, Transactions)}, waking the
     * queue's consumers through {@code notifier}: an enqueue that commits on its own and is the first
     * after a quiet interval carries the notification in its own statement, so that it is delivered
     * with the commit; the others get the notifier's coalesced one after their commit.
     */
    public QueueProducer(DataSource dataSource, QueueLocation location, QueueListener listener,
                         Transactions transactions, QueueNotifier notifier) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.listener = SafeListener.wrap(Objects.requireNonNull(listener, "listener"));
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.notifier = notifier;
        this.notified = notifier == null ? QueueListener.NONE : SafeListener.wrap(notifier);
        this.sql = new QueueSql(location.table());
    }

    public QueueLocation location() {
        return location;
    }

    /** Enqueues one task, due now, and commits (or joins the calling thread's transaction). Returns its id. */
    public long enqueue(String payload) {
        return enqueueAll(List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /** Enqueues one task that becomes due after {@code delay}, and commits. */
    public long enqueue(String payload, Duration delay) {
        return enqueueAll(List.of(checkedPayload(payload)), delay).get(0);
    }

    /** Enqueues a batch in one statement and commits it (or joins the calling thread's transaction). Returns the ids in payload order. */
    public List<Long> enqueueAll(List<String> payloads) {
        return enqueueAll(payloads, Duration.ZERO);
    }

    public List<Long> enqueueAll(List<String> payloads, Duration delay) {
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        Jdbc.Work<List<Long>> notifying = notifier != null && delay.isZero() ? c -> insertNotifying(c, values) : null;
        return write(c -> insert(c, values, delay), notifying, List::size);
    }

    /** Enqueues one task in the caller's transaction on {@code connection}; does not commit. */
    public long enqueue(Connection connection, String payload) throws SQLException {
        return enqueueAll(connection, List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /**
     * Enqueues a batch in the caller's transaction on {@code connection}; does not commit. The
     * listener hears of it when the producer's {@link Transactions} sees that transaction commit
     * (Spring's: after the commit), else at once.
     */
    public List<Long> enqueueAll(Connection connection, List<String> payloads, Duration delay) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        List<Long> ids = insert(connection, values, delay);
        transactions.afterCommit(() -> reportEnqueued(ids.size()));
        return ids;
    }

    /** Enqueues one task, due now, unless {@code key} was enqueued before; commits. */
    public Enqueued enqueueOnce(String key, String payload) {
        // Not List.of: a null key must reach the check that names it, not fail inside the list.
        return enqueueAllOnce(Collections.singletonList(key), List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /**
     * Enqueues the tasks whose keys were not enqueued before, in one statement, and commits.
     * {@code keys.get(i)} is the key of {@code payloads.get(i)}; the answers are in that order.
     */
    public List<Enqueued> enqueueAllOnce(List<String> keys, List<String> payloads, Duration delay) {
        KeyedBatch batch = KeyedBatch.of(keys, checkedPayloads(payloads));
        checkDelay(delay);
        return write(c -> insertOnce(c, batch, delay), null, QueueProducer::stored);
    }

    /** As {@link #enqueueAllOnce(List, List, Duration)} in the caller's transaction on {@code connection}; does not commit. */
    public List<Enqueued> enqueueAllOnce(Connection connection, List<String> keys, List<String> payloads,
                                         Duration delay) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        KeyedBatch batch = KeyedBatch.of(keys, checkedPayloads(payloads));
        checkDelay(delay);
        List<Enqueued> answers = insertOnce(connection, batch, delay);
        transactions.afterCommit(() -> reportEnqueued(stored(answers)));
        return answers;
    }

    /**
     * Runs {@code insert} in the calling thread's transaction, reporting the tasks to the listener once
     * it commits, or else on a connection of its own, reporting them at once; there, when the notifier
     * reserves this enqueue's notification, it runs {@code insertNotifying} (if not null) instead.
     */
    private <T> T write(Jdbc.Work<T> insert, Jdbc.Work<T> insertNotifying, ToIntFunction<T> enqueued) {
        String what = "enqueue into " + location;
        return Jdbc.joinedOr(transactions, dataSource, what, c -> {
            T result = insert.run(c);
            transactions.afterCommit(() -> reportEnqueued(enqueued.applyAsInt(result)));
            return result;
        }, () -> {
            boolean inline = insertNotifying != null && notifier.reserveInline(location);
            T result;
            try {
                result = Jdbc.autoCommitted(dataSource, what, inline ? insertNotifying : insert);
            } finally {
                if (inline) {
                    notifier.releaseInline();
                }
            }
            listener.enqueued(location, enqueued.applyAsInt(result));
            if (!inline) {
                notified.enqueued(location, enqueued.applyAsInt(result));
            }
            return result;
        });
    }

    private void reportEnqueued(int count) {
        listener.enqueued(location, count);
        notified.enqueued(location, count);
    }

    /** {@link #insert} of tasks due now, with the queue's notification in the same statement and transaction. */
    private List<Long> insertNotifying(Connection c, String[] payloads) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.enqueueNotifying)) {
            ps.setString(1, location.queueName());
            ps.setArray(2, Jdbc.texts(c, payloads));
            ListenerPresence.bindNotify(ps, 3, WakeupChannel.of(location.table()), location.queueName());
            ps.execute();
            List<Long> ids = ids(ps.getResultSet(), payloads.length);
            ps.getMoreResults();
            try (ResultSet notified = ps.getResultSet()) {
                notifier.sentInline(notified.next());
            }
            return ids;
        }
    }

    private List<Enqueued> insertOnce(Connection c, KeyedBatch batch, Duration delay) throws SQLException {
        boolean delayed = !delay.isZero();
        List<Enqueued> distinct = new ArrayList<>(batch.keys.length);
        try (PreparedStatement ps = c.prepareStatement(delayed ? sql.enqueueOnceDelayed : sql.enqueueOnce)) {
            ps.setArray(1, Jdbc.texts(c, batch.keys));
            ps.setArray(2, Jdbc.texts(c, batch.payloads));
            ps.setString(3, location.queueName());
            ps.setString(4, location.queueName());
            if (delayed) {
                ps.setLong(5, delay.toNanos() / 1000);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    distinct.add(new Enqueued(rs.getLong(1), rs.getBoolean(2)));
                }
            }
        }
        List<Enqueued> answers = new ArrayList<>(batch.positions.length);
        for (int i = 0; i < batch.positions.length; i++) {
            Enqueued answer = distinct.get(batch.positions[i]);
            // A key's second occurrence in the batch was not stored by it.
            answers.add(batch.first[i] ? answer : new Enqueued(answer.id(), false));
        }
        return answers;
    }

    private static int stored(List<Enqueued> answers) {
        return (int) answers.stream().filter(Enqueued::stored).count();
    }

    /** A keyed batch with each key once (the statement cannot insert a key twice), and where each input went. */
    private record KeyedBatch(String[] keys, String[] payloads, int[] positions, boolean[] first) {

        static KeyedBatch of(List<String> keys, String[] payloads) {
            if (keys == null || keys.size() != payloads.length) {
                throw new IllegalArgumentException("keys must have one key per payload: " + payloads.length
                        + " payloads, " + (keys == null ? "no keys" : keys.size() + " keys"));
            }
            Map<String, Integer> index = new HashMap<>();
            List<String> distinctKeys = new ArrayList<>();
            List<String> distinctPayloads = new ArrayList<>();
            int[] positions = new int[payloads.length];
            boolean[] first = new boolean[payloads.length];
            for (int i = 0; i < payloads.length; i++) {
                String key = IdempotencyKeys.checked(keys.get(i), "key[" + i + "]");
                Integer at = index.putIfAbsent(key, distinctKeys.size());
                first[i] = at == null;
                if (at == null) {
                    positions[i] = distinctKeys.size();
                    distinctKeys.add(key);
                    distinctPayloads.add(payloads[i]);
                } else {
                    positions[i] = at;
                }
            }
            return new KeyedBatch(distinctKeys.toArray(String[]::new), distinctPayloads.toArray(String[]::new), positions,
                    first);
        }
    }

    private List<Long> insert(Connection c, String[] payloads, Duration delay) throws SQLException {
        boolean delayed = !delay.isZero();
        try (PreparedStatement ps = c.prepareStatement(delayed ? sql.enqueueDelayed : sql.enqueue)) {
            ps.setString(1, location.queueName());
            if (delayed) {
                ps.setLong(2, delay.toNanos() / 1000);
            }
            ps.setArray(delayed ? 3 : 2, Jdbc.texts(c, payloads));
            return ids(ps.executeQuery(), payloads.length);
        }
    }

    private static List<Long> ids(ResultSet result, int expected) throws SQLException {
        List<Long> ids = new ArrayList<>(expected);
        try (ResultSet rs = result) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static String[] checkedPayloads(List<String> payloads) {
        if (payloads == null) {
            throw new IllegalArgumentException("payloads must not be null");
        }
        if (payloads.isEmpty() || payloads.size() > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batch size must be between 1 and " + MAX_BATCH_SIZE + ", was "
                    + payloads.size());
        }
        String[] values = new String[payloads.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = checkedPayload(payloads.get(i), "payload[" + i + "]");
        }
        return values;
    }

    static String checkedPayload(String payload) {
        return checkedPayload(payload, "payload");
    }

    private static String checkedPayload(String payload, String field) {
        if (payload == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        int nul = payload.indexOf('\0');
        if (nul >= 0) {
            throw new IllegalArgumentException(field + " contains a NUL character (U+0000) at index " + nul
                    + ", which PostgreSQL text cannot store");
        }
        return payload;
    }

    private static void checkDelay(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay must be zero or positive, was " + delay);
        }
    }
}
