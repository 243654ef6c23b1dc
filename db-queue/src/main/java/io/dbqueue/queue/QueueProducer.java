package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Puts tasks into one queue. A batch is a single INSERT of unnested arrays: one statement, one
 * round trip, one commit. The methods taking a {@link Connection} write in the caller's transaction
 * and neither commit nor roll back, so a task is enqueued if and only if the caller's own changes
 * commit (transactional outbox). Thread-safe.
 */
public final class QueueProducer {

    public static final int MAX_BATCH_SIZE = 100_000;

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueListener listener;
    private final QueueSql sql;

    public QueueProducer(DataSource dataSource, QueueLocation location) {
        this(dataSource, location, QueueListener.NONE);
    }

    public QueueProducer(DataSource dataSource, QueueLocation location, QueueListener listener) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.listener = SafeListener.wrap(Objects.requireNonNull(listener, "listener"));
        this.sql = new QueueSql(location.table());
    }

    public QueueLocation location() {
        return location;
    }

    /** Enqueues one task, due now, and commits. Returns its id. */
    public long enqueue(String payload) {
        return enqueueAll(List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /** Enqueues one task that becomes due after {@code delay}, and commits. */
    public long enqueue(String payload, Duration delay) {
        return enqueueAll(List.of(checkedPayload(payload)), delay).get(0);
    }

    /** Enqueues a batch in one statement and commits it. Returns the ids in payload order. */
    public List<Long> enqueueAll(List<String> payloads) {
        return enqueueAll(payloads, Duration.ZERO);
    }

    public List<Long> enqueueAll(List<String> payloads, Duration delay) {
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        List<Long> ids = Jdbc.autoCommitted(dataSource, "enqueue into " + location, c -> insert(c, values, delay));
        listener.enqueued(location, ids.size());
        return ids;
    }

    /** Enqueues one task in the caller's transaction on {@code connection}; does not commit. */
    public long enqueue(Connection connection, String payload) throws SQLException {
        return enqueueAll(connection, List.of(checkedPayload(payload)), Duration.ZERO).get(0);
    }

    /** Enqueues a batch in the caller's transaction on {@code connection}; does not commit. */
    public List<Long> enqueueAll(Connection connection, List<String> payloads, Duration delay) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        String[] values = checkedPayloads(payloads);
        checkDelay(delay);
        List<Long> ids = insert(connection, values, delay);
        listener.enqueued(location, ids.size());
        return ids;
    }

    private List<Long> insert(Connection c, String[] payloads, Duration delay) throws SQLException {
        boolean delayed = !delay.isZero();
        try (PreparedStatement ps = c.prepareStatement(delayed ? sql.enqueueDelayed : sql.enqueue)) {
            ps.setString(1, location.queueName());
            if (delayed) {
                ps.setLong(2, delay.toNanos() / 1000);
            }
            ps.setArray(delayed ? 3 : 2, Jdbc.texts(c, payloads));
            List<Long> ids = new ArrayList<>(payloads.length);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        }
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

    private static String checkedPayload(String payload) {
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
