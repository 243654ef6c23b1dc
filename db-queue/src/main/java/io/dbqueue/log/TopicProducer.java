package io.dbqueue.log;

import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.wakeup.CoalescingNotifier;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Appends messages to a topic. A partition's messages of one send are one statement that reserves
 * their offsets on the partition's counter row and inserts them; a send to several partitions is
 * one transaction that takes the partitions in ascending order (two senders never deadlock). Either
 * every message of a send is stored or none is, and offsets stay gapless: a rolled-back append
 * rolls its reservation back with it. Appends to one partition serialise on its counter row until
 * they commit, which is what makes offsets visible in order. Segments are created ahead of the
 * appends ({@link SegmentsAhead}).
 */
public final class TopicProducer implements AutoCloseable {

    private static final String NO_PARTITION = "23514";

    private final DataSource dataSource;
    private final Topic topic;
    private final LogSql sql;
    private final Partitioner partitioner;
    private final CoalescingNotifier notifier; // null: readers find new messages when they poll
    private final SegmentsAhead segments;
    private final Transactions transactions;
    private volatile boolean closed;

    private TopicProducer(DataSource dataSource, Topic topic, Duration notifyInterval, Transactions transactions) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.topic = topic;
        this.sql = new LogSql(topic);
        this.partitioner = new Partitioner(topic.partitions());
        this.notifier = notifyInterval == null ? null : new CoalescingNotifier(dataSource, notifyInterval);
        this.segments = new SegmentsAhead(dataSource, topic, sql);
    }

    /** A producer for the topic as created (its row in {@code dbq_topics}); readers are not notified. */
    public static TopicProducer create(DataSource dataSource, String topicName) {
        return new TopicProducer(dataSource, LogSchema.describe(dataSource, topicName), null, Transactions.JDBC);
    }

    /**
     * As {@link #create}, and after each append sends a coalesced NOTIFY (at most one per
     * {@code interval}) that {@link LogWakeups} passes on to the topic's idle readers; a send without
     * a connection joins the transaction {@code transactions} finds the calling thread in, as
     * {@link #sendAll(Connection, List)}.
     */
    public static TopicProducer withWakeups(DataSource dataSource, String topicName, Duration interval,
                                            Transactions transactions) {
        return new TopicProducer(dataSource, LogSchema.describe(dataSource, topicName), interval, transactions);
    }

    public Topic topic() {
        return topic;
    }

    public LogPosition send(String key, String payload) {
        return sendAll(List.of(new LogMessage(key, payload))).get(0);
    }

    /**
     * Appends {@code messages} in one transaction of its own, or in the calling thread's transaction
     * when the producer's {@link Transactions} finds one; returns their positions in order. A send of
     * its own to one partition is one statement in autocommit, one round trip.
     */
    public List<LogPosition> sendAll(List<LogMessage> messages) {
        checkOpen();
        String what = "append to " + topic.name();
        return Jdbc.joinedOr(transactions, dataSource, what, c -> sendAll(c, messages), () -> sendOwn(what, messages));
    }

    /**
     * Appends in a transaction of its own; a partition whose segments the send outruns gets them, and the send is
     * made again, once per partition at most (each attempt finds the first such partition).
     */
    private List<LogPosition> sendOwn(String what, List<LogMessage> messages) {
        Map<Integer, List<Integer>> byPartition = byPartition(messages);
        List<LogPosition> positions = null;
        for (int created = 0; positions == null; created++) {
            try {
                positions = appendOwn(what, messages, byPartition);
            } catch (QueueException e) {
                if (!(e.getCause() instanceof MissingSegment missing) || created == byPartition.size()) {
                    throw e;
                }
                segments.create(missing.partition, missing.count); // on a connection of its own: the first is back in the pool
            }
        }
        wakeReaders(byPartition.keySet());
        return positions;
    }

    /**
     * One auto-committed statement for one partition, one transaction for several. A connection lost once the commit
     * was sent is {@link CommitOutcomeUnknownException}: the append may be stored, so "failed" would be a guess.
     */
    private List<LogPosition> appendOwn(String what, List<LogMessage> messages, Map<Integer, List<Integer>> byPartition) {
        try {
            return Jdbc.written(dataSource, what, byPartition.size() > 1, c -> append(c, messages, byPartition));
        } catch (CommitOutcomeUnknownException e) {
            throw new CommitOutcomeUnknownException(what + ": outcome unknown, the connection was lost while"
                    + " committing; the messages may be stored", e.getCause());
        }
    }

    /**
     * Appends {@code messages} in the caller's transaction on {@code connection}: they become
     * visible, and their offsets final, when the caller commits; a rollback leaves no gap. The
     * partitions' counter rows stay locked until then, so keep the transaction short. With wakeups,
     * the notification is part of the caller's transaction, delivered when it commits. When the
     * append reaches a segment not yet created (the first of every other segment), the segment is
     * created but the caller's transaction is aborted: the exception says so; retry the transaction.
     */
    public List<LogPosition> sendAll(Connection connection, List<LogMessage> messages) {
        checkOpen();
        Objects.requireNonNull(connection, "connection");
        Map<Integer, List<Integer>> byPartition = byPartition(messages);
        try {
            List<LogPosition> positions = append(connection, messages, byPartition);
            if (notifier != null) {
                try (PreparedStatement ps = connection.prepareStatement(LogSql.NOTIFY_PARTITIONS)) {
                    ps.setString(1, LogSql.channel(topic.name()));
                    ps.setArray(2, Jdbc.ints(connection, byPartition.keySet().stream().mapToInt(Integer::intValue)
                            .toArray()));
                    ps.execute();
                }
            }
            return positions;
        } catch (MissingSegment e) {
            segments.create(e.partition, e.count);
            throw new QueueException("append to " + topic.name() + " partition " + e.partition + " reached a segment"
                    + " that did not exist yet; it has been created, but the caller's transaction is aborted: retry it",
                    e);
        } catch (SQLException e) {
            throw new QueueException("append to " + topic.name() + " failed: " + e.getMessage(), e);
        }
    }

    private List<LogPosition> append(Connection c, List<LogMessage> messages, Map<Integer, List<Integer>> byPartition)
            throws SQLException {
        LogPosition[] positions = new LogPosition[messages.size()];
        for (Map.Entry<Integer, List<Integer>> e : byPartition.entrySet()) {
            int partition = e.getKey();
            List<Integer> indexes = e.getValue();
            long first = appendToPartition(c, partition, messages, indexes);
            for (int i = 0; i < indexes.size(); i++) {
                positions[indexes.get(i)] = new LogPosition(partition, first + i);
            }
            segments.appended(partition, first + indexes.size());
        }
        return List.of(positions);
    }

    private Map<Integer, List<Integer>> byPartition(List<LogMessage> messages) {
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("append to " + topic.name() + ": no messages");
        }
        int unkeyed = partitioner.nextUnkeyed();
        Map<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (int i = 0; i < messages.size(); i++) {
            LogMessage m = messages.get(i);
            LogMessage.checkAppendable(topic.name(), i, m);
            byPartition.computeIfAbsent(partitioner.partition(m.key(), unkeyed), p -> new ArrayList<>()).add(i);
        }
        return byPartition;
    }

    private long appendToPartition(Connection c, int partition, List<LogMessage> messages, List<Integer> indexes)
            throws SQLException {
        String[] keys = new String[indexes.size()];
        String[] payloads = new String[indexes.size()];
        for (int i = 0; i < indexes.size(); i++) {
            LogMessage m = messages.get(indexes.get(i));
            keys[i] = m.key();
            payloads[i] = m.payload();
        }
        try (PreparedStatement ps = c.prepareStatement(sql.append(partition))) {
            ps.setInt(1, indexes.size());
            ps.setInt(2, partition);
            ps.setInt(3, indexes.size());
            ps.setArray(4, Jdbc.texts(c, keys));
            ps.setArray(5, Jdbc.texts(c, payloads));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            if (NO_PARTITION.equals(e.getSQLState())) {
                throw new MissingSegment(partition, indexes.size(), e);
            }
            throw e;
        }
    }

    /** An append found no segment for its offsets. */
    private static final class MissingSegment extends SQLException {
        private final int partition;
        private final int count; // messages the append had for the partition

        MissingSegment(int partition, int count, SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause);
            this.partition = partition;
            this.count = count;
        }
    }

    /** Notifies the readers of the partitions appended to: the payload is the partition, so only its holders wake. */
    private void wakeReaders(Set<Integer> partitions) {
        if (notifier != null) {
            for (int partition : partitions) {
                notifier.notify(LogSql.channel(topic.name()), Integer.toString(partition));
            }
        }
    }

    /** Whether {@link #close} was called: sends are refused from then on. */
    public boolean isClosed() {
        return closed;
    }

    /** Sends made after {@link #close} are refused before anything is written. */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the producer of topic " + topic.name() + " is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        segments.close();
        if (notifier != null) {
            notifier.close();
        }
    }
}
