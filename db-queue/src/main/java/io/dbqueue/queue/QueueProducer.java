package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.wakeup.ListenerPresence;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * still one statement, and a key repeated within one batch is one task. A key may carry a request
 * fingerprint (a hash of the request it stands for): the same key with another fingerprint is a
 * client reusing a key for a different request, and throws {@link IdempotencyKeyReusedException}.
 * A {@link Uniqueness} other than the default keeps a key only while its task waits (or runs), and may
 * have a repeat replace the waiting task's payload and due time (debounce).
 *
 * <p>A write that fails before its commit was sent throws {@link io.dbqueue.common.QueueException}:
 * nothing was stored. The connection lost while committing throws its subtype
 * {@link io.dbqueue.common.CommitOutcomeUnknownException}: it may have been stored.
 */
public final class QueueProducer {

    private static final Logger LOG = LoggerFactory.getLogger(QueueProducer.class);

    /**
     * The answer to an enqueue with an idempotency key.
     *
     * @param id       the task's id: this call's, or the one the key answers with
     * @param stored   whether this call stored a new task; false when the key answered with its task
     * @param replaced whether this call replaced the payload and due time of the key's waiting task
     *                 ({@link Uniqueness.OnRepeat#REPLACE})
     */
    public record Enqueued(long id, boolean stored, boolean replaced) {

        /** An answer that replaced nothing. */
        public Enqueued(long id, boolean stored) {
            this(id, stored, false);
        }
    }

    public static final int MAX_BATCH_SIZE = 100_000;
    /** The lowest and highest priority a task can have (the {@code priority} column is a smallint). */
    public static final int MIN_PRIORITY = Short.MIN_VALUE;
    public static final int MAX_PRIORITY = Short.MAX_VALUE;

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueListener listener;
    private final QueueNotifier notifier; // null: no wakeups
    private final QueueListener notified; // the notifier as a listener, its failures logged, never the caller's
    private final QueueSql sql;
    /** The enqueues with headers, which only a table with the headers column takes. */
    private final SchemaAwareSql headerSql;
    private final Transactions transactions;
    private final EnqueueInterceptor interceptor; // null: none
    private final AtomicBoolean droppedHeadersLogged = new AtomicBoolean();

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
        this(dataSource, location, listener, transactions, notifier, null);
    }

    private QueueProducer(DataSource dataSource, QueueLocation location, QueueListener listener,
                          Transactions transactions, QueueNotifier notifier, EnqueueInterceptor interceptor) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.listener = SafeListener.wrap(Objects.requireNonNull(listener, "listener"));
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.notifier = notifier;
        this.notified = notifier == null ? QueueListener.NONE : SafeListener.wrap(notifier);
        this.sql = new QueueSql(location.table());
        this.headerSql = new SchemaAwareSql(location.table());
        this.interceptor = interceptor;
    }

    /** This producer with every enqueue call run through {@code interceptor}. */
    public QueueProducer intercepted(EnqueueInterceptor interceptor) {
        return new QueueProducer(dataSource, location, listener, transactions, notifier,
                Objects.requireNonNull(interceptor, "interceptor"));
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
        return send(checkedPayloads(payloads), null, delay);
    }

    /**
     * Enqueues one task, due now, with {@code headers} (a flat map of strings the handler reads as
     * {@link Task#headers}), and commits. The table needs the {@code headers} column ({@link Schema#headersMigration}).
     */
    public long enqueue(String payload, Map<String, String> headers) {
        return enqueueAll(List.of(checkedPayload(payload)), List.of(TaskHeaders.checked("headers", headers)),
                Duration.ZERO).get(0);
    }

    /** As {@link #enqueueAll(List, Duration)}, {@code headers.get(i)} the headers of {@code payloads.get(i)}. */
    public List<Long> enqueueAll(List<String> payloads, List<Map<String, String>> headers, Duration delay) {
        String[] values = checkedPayloads(payloads);
        return send(values, checkedHeaders(headers, values.length), delay);
    }

    /** Enqueues {@code values} with {@code headers} (null: none given), through the interceptor if there is one. */
    private List<Long> send(String[] values, List<Map<String, String>> headers, Duration delay) {
        checkDelay(delay);
        return throughInterceptor(values.length, added -> {
            if (headers == null && added.isEmpty()) {
                Jdbc.Work<List<Long>> notifying = notifier != null && delay.isZero()
                        ? c -> insertNotifying(c, values) : null;
                return write(c -> insert(c, values, delay), notifying, false, List::size);
            }
            return write(c -> insert(c, values, headers, added, delay), null, false, List::size);
        });
    }

    /**
     * {@link #intercepted} of an enqueue that commits on its own (its write throws QueueException). An interceptor that
     * fails after its enqueue committed (a tracing span's end) is logged, and the enqueue's answer returned: thrown,
     * it read as "nothing stored", and a caller that sent again without a key stored the tasks twice.
     */
    private <T> T throughInterceptor(int tasks, Headed<T> enqueue) {
        List<T> committed = new ArrayList<>(1); // the enqueue's answer, once it has committed
        try {
            return intercepted(tasks, added -> {
                T answer = enqueue.run(added);
                committed.add(answer);
                return answer;
            });
        } catch (SQLException | RuntimeException e) {
            if (!committed.isEmpty()) {
                LOG.warn("{}: the enqueue interceptor failed after its {} tasks were stored: {}", location, tasks,
                        e.toString());
                return committed.get(0);
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            // Only an interceptor's own SQLException gets here: the write throws QueueException.
            throw new QueueException("enqueue into " + location + " failed in its interceptor: " + e.getMessage(), e);
        }
    }

    /** {@code enqueue} given the interceptor's headers, run through it; with none, given no headers. */
    private <T> T intercepted(int tasks, Headed<T> enqueue) throws SQLException {
        if (interceptor == null) {
            return enqueue.run(Map.of());
        }
        Map<String, String> added = new LinkedHashMap<>();
        return interceptor.around(location, tasks, added,
                () -> enqueue.run(TaskHeaders.checked("interceptor's headers", added)));
    }

    private interface Headed<T> {
        T run(Map<String, String> added) throws SQLException;
    }

    /**
     * Enqueues one task of {@code priority}, due now, and commits (or joins the calling thread's transaction).
     * Only on a layout with {@link Layout#priorities() priorities}: a higher priority is claimed first, and
     * tasks of one priority in enqueue order; tasks enqueued without one have priority 0.
     */
    public long enqueue(String payload, int priority) {
        return enqueueAll(List.of(checkedPayload(payload)), Duration.ZERO, priority).get(0);
    }

    /** As {@link #enqueueAll(List, Duration)}, every task of the batch with {@code priority}; see {@link #enqueue(String, int)}. */
    public List<Long> enqueueAll(List<String> payloads, Duration delay, int priority) {
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        checkPriority(priority);
        return throughInterceptor(values.length, added -> write(c -> insertPrioritized(c, values, delay, priority, added),
                null, false, List::size));
    }

    /** As {@link #enqueueAll(Connection, List, Duration)}, every task of the batch with {@code priority}. */
    public List<Long> enqueueAll(Connection connection, List<String> payloads, Duration delay, int priority)
            throws SQLException {
        Objects.requireNonNull(connection, "connection");
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        checkPriority(priority);
        List<Long> ids = intercepted(values.length,
                added -> insertPrioritized(connection, values, delay, priority, added));
        transactions.afterCommit(() -> reportEnqueued(ids.size()));
        return ids;
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
        return enqueueAll(connection, payloads, null, delay);
    }

    /**
     * As {@link #enqueueAll(Connection, List, Duration)}, {@code headers.get(i)} the headers of {@code payloads.get(i)}
     * (null: none); the table needs the {@code headers} column ({@link Schema#headersMigration}).
     */
    public List<Long> enqueueAll(Connection connection, List<String> payloads, List<Map<String, String>> headers,
                                 Duration delay) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        String[] values = checkedPayloads(payloads);
        List<Map<String, String>> given = headers == null ? null : checkedHeaders(headers, values.length);
        checkDelay(delay);
        List<Long> ids = intercepted(values.length, added -> given == null && added.isEmpty()
                ? insert(connection, values, delay) : insert(connection, values, given, added, delay));
        transactions.afterCommit(() -> reportEnqueued(ids.size()));
        return ids;
    }

    /** Enqueues one task, due now, unless {@code key} was enqueued before; commits. */
    public Enqueued enqueueOnce(String key, String payload) {
        // Not List.of: a null key must reach the check that names it, not fail inside the list.
        return enqueueAllOnce(Collections.singletonList(key), List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /**
     * As {@link #enqueueOnce(String, String)}, the key stored with {@code fingerprint} (a hash of the
     * request the key stands for, at most {@value IdempotencyKeys#MAX_KEY_LENGTH} characters; null:
     * none). The key sent again with another fingerprint stores nothing and throws
     * {@link IdempotencyKeyReusedException}; a key stored without one matches any.
     */
    public Enqueued enqueueOnce(String key, String fingerprint, String payload) {
        return enqueueAllOnce(Collections.singletonList(key), Collections.singletonList(fingerprint),
                List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /**
     * Enqueues one task that becomes due after {@code delay} unless its key answers with a task, as
     * {@code uniqueness} says; commits. See {@link #enqueueAllOnce(List, List, List, Duration, Uniqueness)}.
     */
    public Enqueued enqueueOnce(String key, String payload, Duration delay, Uniqueness uniqueness) {
        return enqueueAllOnce(Collections.singletonList(key), null, List.of(checkedPayload(payload)), delay,
                uniqueness).get(0);
    }

    /**
     * Enqueues the tasks whose keys were not enqueued before, in one statement, and commits.
     * {@code keys.get(i)} is the key of {@code payloads.get(i)}; the answers are in that order.
     */
    public List<Enqueued> enqueueAllOnce(List<String> keys, List<String> payloads, Duration delay) {
        return enqueueAllOnce(keys, null, payloads, delay);
    }

    /**
     * As {@link #enqueueAllOnce(List, List, Duration)}, each key stored with its request fingerprint
     * ({@code fingerprints.get(i)} of {@code keys.get(i)}, null elements: none). If any key was
     * enqueued before with another fingerprint, nothing of the batch is stored and
     * {@link IdempotencyKeyReusedException} names the first such key. So that it can be undone, a batch
     * of several keys with fingerprints runs in a savepoint, in a transaction of its own unless it joins
     * the calling thread's (three round trips more than one statement in auto-commit).
     */
    public List<Enqueued> enqueueAllOnce(List<String> keys, List<String> fingerprints, List<String> payloads,
                                         Duration delay) {
        return enqueueAllOnce(keys, fingerprints, payloads, delay, Uniqueness.WINDOW);
    }

    /**
     * As {@link #enqueueAllOnce(List, List, List, Duration)}, a key answering with its task as
     * {@code uniqueness} says. With {@link Uniqueness#WINDOW} (the default) a key answers with its first
     * task for the keys' retention. With the other scopes a key answers only while its task waits (or runs);
     * once its task is claimed (or has left the queue) a repeat enqueues a new task under the key, answered
     * {@code stored}. With {@link Uniqueness.OnRepeat#REPLACE} a repeat of a key whose task is waiting
     * sets that task's payload and due time (now plus {@code delay}) and is answered {@code replaced}, with
     * the task's id. Fingerprints are compared only where a key answers with its task unchanged; a call
     * that replaces the task or enqueues a new one stores its own. Producers sending one key at the same
     * time take turns on the key, so that it never has two tasks: this costs a lock of the key's row and of
     * its task's, in the same single statement (a statement again for the keys another producer changed
     * meanwhile).
     */
    public List<Enqueued> enqueueAllOnce(List<String> keys, List<String> fingerprints, List<String> payloads,
                                         Duration delay, Uniqueness uniqueness) {
        checkUniqueness(uniqueness);
        KeyedBatch batch = KeyedBatch.of(keys, fingerprints, checkedPayloads(payloads), uniqueness);
        checkDelay(delay);
        // Savepoints need a transaction; in auto-commit there would be none to undo the batch in.
        return throughInterceptor(batch.keys.length, added -> write(c -> insertOnce(c, batch, delay, uniqueness, added),
                null, batch.needsTransaction(uniqueness), QueueProducer::stored));
    }

    /** As {@link #enqueueAllOnce(List, List, Duration)} in the caller's transaction on {@code connection}; does not commit. */
    public List<Enqueued> enqueueAllOnce(Connection connection, List<String> keys, List<String> payloads,
                                         Duration delay) throws SQLException {
        return enqueueAllOnce(connection, keys, payloads, delay, Uniqueness.WINDOW);
    }

    /**
     * As {@link #enqueueAllOnce(List, List, List, Duration, Uniqueness)} in the caller's transaction on
     * {@code connection}; does not commit.
     */
    public List<Enqueued> enqueueAllOnce(Connection connection, List<String> keys, List<String> payloads,
                                         Duration delay, Uniqueness uniqueness) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        checkUniqueness(uniqueness);
        KeyedBatch batch = KeyedBatch.of(keys, null, checkedPayloads(payloads), uniqueness);
        checkDelay(delay);
        List<Enqueued> answers = intercepted(batch.keys.length,
                added -> insertOnce(connection, batch, delay, uniqueness, added));
        transactions.afterCommit(() -> reportEnqueued(stored(answers)));
        return answers;
    }

    /**
     * Runs {@code insert} in the calling thread's transaction, reporting the tasks to the listener once
     * it commits, or else on a connection of its own, reporting them at once; there, when the notifier
     * reserves this enqueue's notification, it runs {@code insertNotifying} (if not null) instead; with
     * {@code ownTransaction}, in a transaction (else auto-commit), so that {@code insert} can undo its
     * statement by throwing.
     */
    private <T> T write(Jdbc.Work<T> insert, Jdbc.Work<T> insertNotifying, boolean ownTransaction,
                        ToIntFunction<T> enqueued) {
        String what = "enqueue into " + location;
        return Jdbc.joinedOr(transactions, dataSource, what, c -> {
            T result = insert.run(c);
            transactions.afterCommit(() -> reportEnqueued(enqueued.applyAsInt(result)));
            return result;
        }, () -> {
            boolean inline = insertNotifying != null && notifier.reserveInline(location);
            T result;
            try {
                result = Jdbc.written(dataSource, what, ownTransaction, inline ? insertNotifying : insert);
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

    /**
     * The keyed insert. A key whose stored fingerprint differs throws {@link IdempotencyKeyReusedException};
     * where the other keys of the batch would stay stored ({@link KeyedBatch#undoable}), the statement
     * runs inside a savepoint that the exception rolls back, in the caller's transaction or its own.
     */
    private List<Enqueued> insertOnce(Connection c, KeyedBatch batch, Duration delay, Uniqueness uniqueness,
                                      Map<String, String> added) throws SQLException {
        QueueSql statements = keyedStatements(c, added);
        if (!batch.undoable()) {
            return insertKeyed(c, statements, batch, delay, uniqueness, added);
        }
        Savepoint savepoint = c.setSavepoint();
        try {
            List<Enqueued> answers = insertKeyed(c, statements, batch, delay, uniqueness, added);
            c.releaseSavepoint(savepoint);
            return answers;
        } catch (IdempotencyKeyReusedException e) {
            c.rollback(savepoint);
            throw e;
        }
    }

    private List<Enqueued> insertKeyed(Connection c, QueueSql statements, KeyedBatch batch, Duration delay,
                                       Uniqueness uniqueness, Map<String, String> added) throws SQLException {
        List<Enqueued> distinct = uniqueness.equals(Uniqueness.WINDOW) ? insertFirst(c, statements, batch, delay, added)
                : insertUnique(c, statements, batch, delay, uniqueness, added);
        List<Enqueued> answers = new ArrayList<>(batch.positions.length);
        for (int i = 0; i < batch.positions.length; i++) {
            Enqueued answer = distinct.get(batch.positions[i]);
            // A key's second occurrence in the batch was not stored by it.
            answers.add(batch.first[i] ? answer : new Enqueued(answer.id(), false));
        }
        return answers;
    }

    /** The answers to the batch's distinct keys, a key answering with its first task ({@link Uniqueness#WINDOW}). */
    private List<Enqueued> insertFirst(Connection c, QueueSql statements, KeyedBatch batch, Duration delay,
                                       Map<String, String> added) throws SQLException {
        boolean delayed = !delay.isZero();
        List<Enqueued> distinct = new ArrayList<>(batch.keys.length);
        try (PreparedStatement ps = c.prepareStatement(delayed ? statements.enqueueOnceDelayed
                : statements.enqueueOnce)) {
            ps.setArray(1, Jdbc.texts(c, batch.keys));
            ps.setArray(2, Jdbc.texts(c, batch.payloads));
            ps.setArray(3, Jdbc.texts(c, batch.fingerprints));
            ps.setString(4, location.queueName());
            ps.setString(5, location.queueName());
            int p = 6;
            if (delayed) {
                ps.setLong(p++, delay.toNanos() / 1000);
            }
            if (statements.headers) {
                ps.setString(p, TaskHeaders.json(added));
            }
            try (ResultSet rs = ps.executeQuery()) {
                for (int k = 0; rs.next(); k++) {
                    if (rs.getBoolean(3)) {
                        throw new IdempotencyKeyReusedException(batch.keys[k], rs.getLong(1));
                    }
                    distinct.add(new Enqueued(rs.getLong(1), rs.getBoolean(2)));
                }
            }
        }
        return distinct;
    }

    /**
     * The answers to the batch's distinct keys under the other modes of {@code uniqueness}. The keys that
     * another producer changed while the statement ran are sent again, until none is left: each round
     * needs another producer's commit on the key, and one inside a transaction holds the key's lock after.
     * A round locks the keys that exist in key order, then the new ones, so a key stored after its snapshot
     * began can close a deadlock with a transaction that holds it and waits on a key the round holds; where
     * PostgreSQL fails the round, the write is done again ({@link Jdbc#written}).
     */
    private List<Enqueued> insertUnique(Connection c, QueueSql statements, KeyedBatch batch, Duration delay,
                                        Uniqueness uniqueness, Map<String, String> added) throws SQLException {
        Enqueued[] answers = new Enqueued[batch.keys.length];
        List<Integer> pending = IntStream.range(0, batch.keys.length).boxed().toList();
        while (!pending.isEmpty()) {
            List<Integer> again = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(statements.enqueueUnique)) {
                ps.setLong(1, delay.toNanos() / 1000);
                ps.setString(2, location.queueName());
                ps.setBoolean(3, uniqueness.freesRunning());
                ps.setBoolean(4, uniqueness.freesGone());
                ps.setBoolean(5, uniqueness.replaces());
                int p = 6;
                if (statements.headers) {
                    ps.setString(p++, TaskHeaders.json(added));
                }
                ps.setArray(p++, Jdbc.texts(c, pick(batch.keys, pending)));
                ps.setArray(p++, Jdbc.texts(c, pick(batch.payloads, pending)));
                ps.setArray(p, Jdbc.texts(c, pick(batch.fingerprints, pending)));
                try (ResultSet rs = ps.executeQuery()) {
                    for (int k = 0; rs.next(); k++) {
                        int at = pending.get(k);
                        if (rs.getBoolean(5)) {
                            again.add(at);
                        } else if (rs.getBoolean(4)) {
                            throw new IdempotencyKeyReusedException(batch.keys[at], rs.getLong(1));
                        } else {
                            answers[at] = new Enqueued(rs.getLong(1), rs.getBoolean(2), rs.getBoolean(3));
                        }
                    }
                }
            }
            pending = again;
        }
        return Arrays.asList(answers);
    }

    private static String[] pick(String[] values, List<Integer> at) {
        return at.stream().map(i -> values[i]).toArray(String[]::new);
    }

    private static int stored(List<Enqueued> answers) {
        return (int) answers.stream().filter(Enqueued::stored).count();
    }

    /**
     * A keyed batch with each key once (the statement cannot insert a key twice), its fingerprints
     * (null elements: none), and where each input went.
     */
    private record KeyedBatch(String[] keys, String[] payloads, String[] fingerprints, int[] positions,
                              boolean[] first) {

        /**
         * {@code fingerprints} null: none for any key. A key twice in the batch is one task: with the first
         * occurrence's payload, or under {@code uniqueness} that {@linkplain Uniqueness#replaces replaces} with the
         * last's (and its fingerprint), as the same enqueues sent one after the other would leave it.
         */
        static KeyedBatch of(List<String> keys, List<String> fingerprints, String[] payloads, Uniqueness uniqueness) {
            if (keys == null || keys.size() != payloads.length) {
                throw new IllegalArgumentException("keys must have one key per payload: " + payloads.length
                        + " payloads, " + (keys == null ? "no keys" : keys.size() + " keys"));
            }
            if (fingerprints != null && fingerprints.size() != payloads.length) {
                throw new IllegalArgumentException("fingerprints must have one fingerprint (or null) per payload: "
                        + payloads.length + " payloads, " + fingerprints.size() + " fingerprints");
            }
            Map<String, Integer> index = new HashMap<>();
            List<String> distinctKeys = new ArrayList<>();
            List<String> distinctPayloads = new ArrayList<>();
            List<String> distinctFingerprints = new ArrayList<>();
            int[] positions = new int[payloads.length];
            boolean[] first = new boolean[payloads.length];
            for (int i = 0; i < payloads.length; i++) {
                String key = IdempotencyKeys.checked(keys.get(i), "key[" + i + "]");
                String fingerprint = fingerprints == null ? null
                        : IdempotencyKeys.checkedFingerprint(fingerprints.get(i), "fingerprint[" + i + "]");
                Integer at = index.putIfAbsent(key, distinctKeys.size());
                first[i] = at == null;
                if (at == null) {
                    positions[i] = distinctKeys.size();
                    distinctKeys.add(key);
                    distinctPayloads.add(payloads[i]);
                    distinctFingerprints.add(fingerprint);
                } else if (uniqueness.replaces()) {
                    positions[i] = at;
                    distinctPayloads.set(at, payloads[i]);
                    distinctFingerprints.set(at, fingerprint);
                } else if (IdempotencyKeys.differ(distinctFingerprints.get(at), fingerprint)) {
                    throw new IllegalArgumentException("key[" + i + "] '" + key + "' is in the batch twice with"
                            + " different fingerprints");
                } else {
                    positions[i] = at;
                }
            }
            return new KeyedBatch(distinctKeys.toArray(String[]::new), distinctPayloads.toArray(String[]::new),
                    distinctFingerprints.toArray(String[]::new), positions, first);
        }

        /**
         * Whether a reused key must undo the batch's statement: one key reused stores nothing, but of
         * several fingerprinted keys the others would stay stored.
         */
        boolean undoable() {
            return keys.length > 1 && Arrays.stream(fingerprints).anyMatch(Objects::nonNull);
        }

        /**
         * Whether the batch must be written in one transaction of its own: where it is {@link #undoable}, and where
         * keys scoped to their task's state ({@link Uniqueness#freesGone}) or replacing their task
         * ({@link Uniqueness#replaces}) may take more than one statement (a key another producer changed meanwhile is
         * sent again), whose first must not stay stored if a later one fails. In auto-commit, a replacing window's
         * second round that failed left the first's tasks stored under "nothing stored", and one retried after a
         * deadlock answered this call's own new tasks as replayed.
         */
        boolean needsTransaction(Uniqueness uniqueness) {
            return undoable() || (keys.length > 1 && (uniqueness.freesGone() || uniqueness.replaces()));
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

    /** The insert of prioritized tasks, with the interceptor's headers ({@code added}) as {@link #keyedStatements}. */
    private List<Long> insertPrioritized(Connection c, String[] payloads, Duration delay, int priority,
                                         Map<String, String> added) throws SQLException {
        QueueSql statements = keyedStatements(c, added);
        try (PreparedStatement ps = c.prepareStatement(statements.enqueuePrioritized)) {
            ps.setString(1, location.queueName());
            ps.setLong(2, delay.toNanos() / 1000);
            ps.setInt(3, priority);
            int p = 4;
            if (statements.headers) {
                ps.setString(p++, TaskHeaders.json(added));
            }
            ps.setArray(p, Jdbc.texts(c, payloads));
            return ids(ps.executeQuery(), payloads.length);
        }
    }

    /**
     * The statements of a keyed or prioritized enqueue: those that store the interceptor's headers on the new (and
     * replaced) tasks when it gave some and the table has the column, else those without headers.
     */
    private QueueSql keyedStatements(Connection c, Map<String, String> added) throws SQLException {
        if (added.isEmpty()) {
            return sql;
        }
        QueueSql statements = headerSql.on(c);
        if (!statements.headers) {
            warnDropped(added);
            return sql;
        }
        return statements;
    }

    private void warnDropped(Map<String, String> added) {
        if (droppedHeadersLogged.compareAndSet(false, true)) {
            LOG.warn("dbq: {} has no headers column; the enqueue interceptor's headers {} are dropped until it"
                    + " is added (Schema.headersMigration)", location.table().name(), added.keySet());
        }
    }

    /**
     * The insert of tasks with headers: {@code given} per task (null: none), {@code added} (the interceptor's) on
     * each. On a table without the headers column, given headers throw and added ones are dropped.
     */
    private List<Long> insert(Connection c, String[] payloads, List<Map<String, String>> given,
                              Map<String, String> added, Duration delay) throws SQLException {
        QueueSql statements = headerSql.on(c);
        if (!statements.headers) {
            if (given != null) {
                throw new IllegalStateException(location.table().name() + " has no headers column to store the"
                        + " tasks' headers in: add it with Schema.headersMigration (or Schema.createIfMissing)");
            }
            warnDropped(added);
            return insert(c, payloads, delay);
        }
        String[] headers = new String[payloads.length];
        for (int i = 0; i < headers.length; i++) {
            Map<String, String> merged = given == null ? added : given.get(i);
            if (given != null && !added.isEmpty()) {
                merged = new LinkedHashMap<>(merged);
                merged.putAll(added);
            }
            headers[i] = TaskHeaders.json(merged);
        }
        boolean delayed = !delay.isZero();
        try (PreparedStatement ps = c.prepareStatement(delayed ? statements.enqueueWithHeadersDelayed
                : statements.enqueueWithHeaders)) {
            int p = 1;
            ps.setString(p++, location.queueName());
            if (delayed) {
                ps.setLong(p++, delay.toNanos() / 1000);
            }
            ps.setArray(p++, Jdbc.texts(c, payloads));
            ps.setArray(p, Jdbc.texts(c, headers));
            return ids(ps.executeQuery(), payloads.length);
        }
    }

    private static List<Map<String, String>> checkedHeaders(List<Map<String, String>> headers, int payloads) {
        if (headers == null || headers.size() != payloads) {
            throw new InvalidValueException("headers", "must hold one map (empty for none) per payload, "
                    + payloads + " payloads", headers == null ? null : headers.size() + " maps");
        }
        for (int i = 0; i < headers.size(); i++) {
            TaskHeaders.checked("headers[" + i + "]", headers.get(i));
        }
        return headers;
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
        String unstorable = Checks.unstorable(payload);
        if (unstorable != null) {
            throw new IllegalArgumentException(field + " " + unstorable);
        }
        return payload;
    }

    private static void checkUniqueness(Uniqueness uniqueness) {
        if (uniqueness == null) {
            throw new IllegalArgumentException("uniqueness must not be null");
        }
    }

    private void checkPriority(int priority) {
        if (!location.table().layout().priorities()) {
            throw new IllegalArgumentException("priority needs a layout with priorities (" + Layout.priorityPresetNames()
                    + "); " + location.table().name() + " has layout " + location.table().layout().name()
                    + ", was " + priority);
        }
        if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("priority must be between " + MIN_PRIORITY + " and " + MAX_PRIORITY
                    + ", was " + priority);
        }
    }

    private static void checkDelay(Duration delay) {
        if (delay == null || delay.isNegative() || delay.compareTo(Checks.LONGEST) > 0) {
            throw new IllegalArgumentException("delay must be zero or positive and at most 100 years, was " + delay);
        }
    }
}
