package io.dbqueue.log;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.wakeup.WakeupSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A member of a consumer group: one thread that holds some of the topic's partitions (its share
 * among the group's live members, {@link Assignment}) and reads them in turn, a batch per partition
 * per round, per {@link GroupConfig#mode()}. A pooled connection is held only for a statement (or,
 * exactly once, for the batch's transaction), never while an at-least-once or at-most-once handler
 * runs. A member never dies of a failure: it reports, backs off and goes on.
 */
public final class GroupConsumer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupConsumer.class);
    private static final Duration FAILURE_BACKOFF = Duration.ofMillis(500);
    private static final int MAX_BACKOFF_DOUBLINGS = 5;
    private static final Duration REBALANCE_HEARTBEAT = Duration.ofMillis(50);

    private final DataSource dataSource;
    private final GroupConfig config;
    private final Topic topic;
    private final GroupStore store;
    private final RecordHandler handler;
    private final LogListener listener;
    private final WakeupSignal signal = new WakeupSignal(1);
    private final Map<Integer, Long> behindAt = new HashMap<>(); // partition -> committed offset last reported
    private final Thread thread;
    private volatile Set<Integer> held = Set.of();
    private List<String> lastLive = List.of();
    private final Map<Integer, Failure> failures = new HashMap<>();
    private long nextHeartbeat;
    private volatile boolean running = true;

    private GroupConsumer(DataSource dataSource, Topic topic, GroupConfig config, RecordHandler handler,
                          LogListener listener) {
        this.dataSource = dataSource;
        this.config = config;
        this.topic = topic;
        this.store = new GroupStore(topic, config);
        this.handler = Objects.requireNonNull(handler, "handler");
        this.listener = SafeLogListener.wrap(Objects.requireNonNull(listener, "listener"));
        this.thread = new Thread(this::run, "dbq-log-" + config.topic() + "-" + config.memberId());
    }

    public static GroupConsumer start(DataSource dataSource, GroupConfig config, RecordHandler handler) {
        return start(dataSource, config, handler, LogListener.NONE);
    }

    /** Joins the group (creating its positions per {@link GroupConfig#startFrom()}) and starts reading. */
    public static GroupConsumer start(DataSource dataSource, GroupConfig config, RecordHandler handler,
                                      LogListener listener) {
        Objects.requireNonNull(dataSource, "dataSource");
        Topic topic = LogSchema.describe(dataSource, config.topic());
        GroupConsumer consumer = new GroupConsumer(dataSource, topic, config, handler, listener);
        Jdbc.autoCommitted(dataSource, "join group " + config.group(), c -> {
            consumer.store.join(c);
            return null;
        });
        consumer.thread.start();
        return consumer;
    }

    public GroupConfig config() {
        return config;
    }

    /** The topic as created. */
    public Topic topic() {
        return topic;
    }

    /** The partitions this member holds right now. */
    public Set<Integer> partitions() {
        return held;
    }

    /** Cuts an idle member's wait short. */
    public void wakeup() {
        signal.signalAll();
    }

    public boolean isRunning() {
        return running && thread.isAlive();
    }

    /**
     * Whether its thread has not ended: a member told to stop, or whose shutdown timed out, may still be handling a
     * batch, and holds its partitions until it leaves the group.
     */
    public boolean isAlive() {
        return thread.isAlive();
    }

    /**
     * The member's loop: a batch from each held partition in turn, a heartbeat whenever one is due
     * (between partitions too, so that a slow round does not outlast the lease), and a wait when no
     * partition had a full batch. A partition whose read, handler or commit failed is left alone
     * until its back-off ends (wakeups do not cut it short); the others go on.
     */
    private void run() {
        nextHeartbeat = System.nanoTime();
        while (running) {
            long seen = signal.generation();
            long wait;
            try {
                boolean full = false;
                heartbeatIfDue();
                for (int partition : held) {
                    if (!running) {
                        break;
                    }
                    heartbeatIfDue();
                    if (held.contains(partition) && !backingOff(partition)) {
                        full |= readGuarded(partition) >= config.batchSize();
                    }
                }
                long now = System.nanoTime();
                wait = full ? 0 : Math.min(config.pollInterval().toNanos(), nextHeartbeat - now);
                for (long retryAt : failures.values().stream().map(Failure::retryAt).toList()) {
                    wait = Math.min(wait, retryAt - now);
                }
            } catch (RuntimeException e) { // the heartbeat failed: the database is away
                LOG.warn("{}/{}: heartbeat failed, trying again: {}", config.topic(), config.group(), e.toString());
                listener.crashed(config.topic(), config.group(), e);
                nextHeartbeat = System.nanoTime() + FAILURE_BACKOFF.toNanos();
                wait = FAILURE_BACKOFF.toNanos();
            }
            try {
                if (wait > 0 && running) {
                    signal.awaitSince(seen, wait);
                }
            } catch (InterruptedException e) {
                break;
            }
        }
        leaveQuietly();
    }

    private void heartbeatIfDue() {
        if (System.nanoTime() - nextHeartbeat >= 0) {
            nextHeartbeat = System.nanoTime() + heartbeat().toNanos();
        }
    }

    private boolean backingOff(int partition) {
        Failure failure = failures.get(partition);
        return failure != null && System.nanoTime() - failure.retryAt() < 0;
    }

    /** {@link #readOnce}, with a failure kept to its partition: backed off, doubling up to half the lease. */
    private int readGuarded(int partition) {
        try {
            int read = readOnce(partition);
            failures.remove(partition);
            return read;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                running = false;
                return 0;
            }
            int count = failures.containsKey(partition) ? failures.get(partition).count() + 1 : 1;
            long backoff = Math.min(FAILURE_BACKOFF.toNanos() << Math.min(count - 1, MAX_BACKOFF_DOUBLINGS),
                    config.lease().toNanos() / 2);
            failures.put(partition, new Failure(count, System.nanoTime() + backoff));
            LOG.warn("{}/{}: partition {} failed ({} in a row), backing off {} ms: {}", config.topic(),
                    config.group(), partition, count, backoff / 1_000_000, e.toString());
            listener.crashed(config.topic(), config.group(), e);
            return 0;
        }
    }

    /** A partition's failures in a row and when to try it again. */
    private record Failure(int count, long retryAt) {
    }

    /**
     * Renews this member's membership and leases; returns when to do it next: soon while the group is
     * changing (members came or went, or part of this member's share is still held by another, which
     * lets go at its next heartbeat), so that partitions do not sit unread between two holders.
     */
    private Duration heartbeat() {
        GroupStore.Membership membership = Jdbc.autoCommitted(dataSource, "heartbeat of " + config.memberId(),
                store::heartbeat);
        boolean changing = !membership.settled() || !membership.live().equals(lastLive);
        lastLive = membership.live();
        Set<Integer> now = membership.held();
        if (!now.equals(held)) {
            LOG.info("{}/{}: member {} holds partitions {}", config.topic(), config.group(), config.memberId(), now);
            held = Set.copyOf(now);
            store.keepPositionsOf(held);
            // a back-off ends only with a read of its partition: one of a partition gone would keep the wait at 0
            failures.keySet().retainAll(held);
            listener.assigned(config.topic(), config.group(), held);
        }
        return changing ? REBALANCE_HEARTBEAT : config.heartbeatInterval();
    }

    /** Reads and handles one batch of {@code partition}; returns how many records it had. */
    private int readOnce(int partition) throws Exception {
        if (config.mode() == DeliveryMode.EXACTLY_ONCE) {
            try (Connection c = dataSource.getConnection()) {
                return readInTransaction(c, partition);
            }
        }
        GroupStore.Read read = Jdbc.autoCommitted(dataSource, "read " + config.topic() + " partition " + partition,
                c -> store.read(c, partition, false));
        if (!readable(partition, read)) {
            return 0;
        }
        RecordBatch batch = new RecordBatch(config.topic(), config.group(), partition, read.records(), config.mode(), null);
        if (config.mode() == DeliveryMode.AT_MOST_ONCE && !commitOwn(partition, read)) {
            return 0;
        }
        handle(batch);
        if (config.mode() == DeliveryMode.AT_MOST_ONCE || commitOwn(partition, read)) {
            reportConsumed(partition, read);
        }
        return read.records().size();
    }

    /** Exactly once: the read (locking the group's row), the handler's SQL and the commit are one transaction. */
    private int readInTransaction(Connection c, int partition) throws Exception {
        c.setAutoCommit(false);
        int records;
        try {
            records = readHandleAndCommit(c, partition);
        } catch (Throwable e) { // whatever it is: turning auto-commit back on would commit the handler's SQL
            Jdbc.rollbackQuietly(c, e);
            Jdbc.autoCommitQuietly(c, e); // on a broken connection this fails too: the handler's failure is the one told
            throw e;
        }
        c.setAutoCommit(true);
        return records;
    }

    private int readHandleAndCommit(Connection c, int partition) throws Exception {
        GroupStore.Read read = store.read(c, partition, true);
        if (!readable(partition, read)) {
            c.commit();
            return 0;
        }
        handle(new RecordBatch(config.topic(), config.group(), partition, read.records(), config.mode(), c));
        if (!commit(c, partition, read)) {
            throw new IllegalStateException("commit refused although the group's row was locked");
        }
        c.commit();
        reportConsumed(partition, read);
        return read.records().size();
    }

    /**
     * Runs the handler. An {@link Error} it throws (a failed assertion, a class it cannot load) fails the batch as an
     * exception does, wrapped in an {@link ExecutionException}; the JVM's own ({@link VirtualMachineError}) passes,
     * but for a StackOverflowError: the handler's own, its stack unwound by here.
     */
    private void handle(RecordBatch batch) throws Exception {
        try {
            handler.handle(batch);
        } catch (StackOverflowError e) {
            throw new ExecutionException("handler failed: " + e, e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            throw new ExecutionException("handler failed: " + e, e);
        }
    }

    private boolean readable(int partition, GroupStore.Read read) {
        if (read == null) {
            return false; // the partition moved to another member since the last heartbeat, or its position moved
        }
        if (read.committedOffset() < read.lowOffset()) {
            reportBehind(partition, read);
            return false;
        }
        behindAt.remove(partition);
        return !read.records().isEmpty();
    }

    private void reportBehind(int partition, GroupStore.Read read) {
        Long reported = behindAt.put(partition, read.committedOffset());
        if (reported == null || reported != read.committedOffset()) {
            GroupBehindRetentionException e = new GroupBehindRetentionException(config.topic(), config.group(),
                    partition, read.committedOffset(), read.lowOffset());
            LOG.error(e.getMessage());
            listener.behindRetention(config.topic(), config.group(), partition, e);
        }
    }

    private boolean commitOwn(int partition, GroupStore.Read read) {
        return Jdbc.autoCommitted(dataSource, "commit " + config.topic() + " partition " + partition,
                c -> commit(c, partition, read));
    }

    private boolean commit(Connection c, int partition, GroupStore.Read read) throws SQLException {
        long next = read.end();
        if (!store.commit(c, partition, read.committedOffset(), next)) {
            LOG.info("{}/{}: commit of partition {} at {} refused: the partition moved to another member or the group "
                    + "was reset; its records from {} may be delivered again", config.topic(), config.group(),
                    partition, next, read.committedOffset());
            return false;
        }
        return true;
    }

    /** Tells the listener of a batch handled with its offset committed, once both are done. */
    private void reportConsumed(int partition, GroupStore.Read read) {
        listener.consumed(config.topic(), config.group(), partition, read.records().size(),
                read.nextOffset() - read.end());
    }

    private void leaveQuietly() {
        try {
            Jdbc.autoCommitted(dataSource, "leave group " + config.group(), c -> {
                store.leave(c);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warn("{}/{}: member {} could not leave the group; its partitions move when their leases expire: {}",
                    config.topic(), config.group(), config.memberId(), e.getMessage());
        }
        held = Set.of();
    }

    /** Stops reading after the batch in hand, without waiting; {@link #shutdown} then waits for it. */
    public void stopReading() {
        running = false;
        signal.signalAll();
    }

    /**
     * Stops reading, waits up to {@code timeout} for the batch in hand to be handled and committed,
     * and leaves the group. Returns whether the member stopped in time.
     */
    public boolean shutdown(Duration timeout) {
        return stop(List.of(this), timeout).isEmpty();
    }

    /**
     * Stops {@code members} together: all stop taking batches at once, then they are waited for up to {@code timeout}
     * in all, not each; members still busy then are all interrupted and get {@link #INTERRUPT_GRACE} more, in all.
     */
    public static void shutdownAll(Collection<GroupConsumer> members, Duration timeout) {
        stop(members, timeout);
    }

    /** A member's extra time after it was interrupted for overrunning a shutdown. */
    static final Duration INTERRUPT_GRACE = Duration.ofSeconds(10);

    /** Stops {@code members} as {@link #shutdownAll} says; returns those not done in time. */
    private static List<GroupConsumer> stop(Collection<GroupConsumer> members, Duration timeout) {
        members.forEach(GroupConsumer::stopReading);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<GroupConsumer> busy = members.stream().filter(m -> !m.joinUntil(deadline)).toList();
        busy.forEach(m -> m.thread.interrupt());
        long grace = System.nanoTime() + INTERRUPT_GRACE.toNanos();
        busy.forEach(m -> m.joinUntil(grace));
        return busy;
    }

    /** Waits for the member's thread until {@code deadline} (nanoTime); whether it ended. */
    private boolean joinUntil(long deadline) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(30));
    }
}
