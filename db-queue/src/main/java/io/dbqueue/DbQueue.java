package io.dbqueue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.Transactions;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.LogListener;
import io.dbqueue.log.LogWakeups;
import io.dbqueue.log.RecordHandler;
import io.dbqueue.log.TopicProducer;
import io.dbqueue.maintenance.Maintenance;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.EnqueueInterceptor;
import io.dbqueue.queue.FailureLog;
import io.dbqueue.queue.PauseWatch;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueNotifier;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueWakeups;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Wakeup;
import io.dbqueue.schedule.Schedules;
import io.dbqueue.serverwatch.VacuumWatch;
import io.dbqueue.wakeup.ChannelListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The front door: everything of db-queue on one {@link DataSource}, built by {@link #builder}. It
 * hands out producers of queues and topics and starts consumers of queues, queue groups and topics,
 * and runs what they need behind them: one LISTEN connection that wakes every consumer it started
 * (when its {@link Wakeup} asks for it; a topic's members always), one notifier shared by its queue
 * producers, the vacuum of each queue table (per the table's {@link VacuumPolicy}), each topic's
 * retention, the purge of idempotency keys, the watch of queues an operator paused ({@link PauseWatch}), the
 * ticks of its {@link #schedules}, and optionally a {@link VacuumWatch}. {@link #close} stops all of it in order.
 * Thread-safe.
 *
 * <pre>{@code
 * try (DbQueue dbq = DbQueue.builder(dataSource).build()) {
 *     QueueLocation emails = QueueTable.of(Layout.DBQ_SEQ).queue("emails");
 *     dbq.consume(QueueConfig.of(emails), batch -> ...);
 *     dbq.producer(emails).enqueue("{\"to\":\"a@example.com\"}");
 * }
 * }</pre>
 */
public final class DbQueue implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DbQueue.class);

    private final DataSource dataSource;
    private final Transactions transactions;
    private final QueueListener listener;
    private final EnqueueInterceptor interceptor; // null: none
    private final QueueListener failureLog;
    private final LogListener logListener;
    private final Duration notifyInterval;
    private final Duration topicNotifyInterval;
    private final Duration shutdownTimeout;
    private final VacuumPolicy defaultVacuum;
    private final Map<QueueTable, VacuumPolicy> vacuumByTable;
    private final Maintenance maintenance;
    private final VacuumWatch watch; // null: not watched
    private final Duration scheduleCheckInterval;
    private Schedules schedules; // guarded by this; null until asked for
    private final List<QueueWorkers> workers = new ArrayList<>(); // guarded by this
    private final List<GroupConsumer> members = new ArrayList<>(); // guarded by this
    private final List<AutoCloseable> producers = new ArrayList<>(); // guarded by this: those that hold a thread
    private final Map<String, TopicProducer> topicProducers = new ConcurrentHashMap<>(); // written under this
    private ChannelListener channels; // guarded by this; null until a consumer wants wakeups
    private QueueWakeups queueWakeups; // guarded by this
    private LogWakeups logWakeups; // guarded by this
    private final Object notifierLock = new Object(); // taken inside this, never around it
    private volatile QueueNotifier notifier; // written under notifierLock; null until the first queue producer
    private PauseWatch pauses; // guarded by this; null until the first queue consumer
    private boolean closing; // guarded by this: no new consumers or schedules; handlers still use producers
    private volatile boolean closed; // written under this: the consumers have stopped, producers are refused too
    private final CountDownLatch closeDone = new CountDownLatch(1);

    private DbQueue(Builder builder) {
        this.dataSource = builder.dataSource;
        this.transactions = builder.transactions;
        this.listener = builder.listener;
        this.interceptor = builder.interceptor;
        this.failureLog = FailureLog.of(builder.failureLogging);
        this.logListener = builder.logListener;
        this.notifyInterval = builder.notifyInterval;
        this.topicNotifyInterval = builder.topicNotifyInterval == null ? notifyInterval : builder.topicNotifyInterval;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.defaultVacuum = builder.defaultVacuum;
        this.vacuumByTable = Map.copyOf(builder.vacuum);
        this.scheduleCheckInterval = builder.scheduleCheckInterval;
        this.maintenance = new Maintenance(dataSource, builder.keyRetention);
        try { // a topic that cannot be read, or a watch started before, would leave the maintenance thread running
            builder.retention.forEach((topic, r) -> maintenance.retain(topic, r.policy(), r.interval()));
            this.watch = builder.watch == null ? null : builder.watch.start(builder.watchInterval);
        } catch (RuntimeException e) {
            maintenance.close();
            throw e;
        }
    }

    /** A door to the queues and topics of {@code dataSource}; {@link Builder#build} opens it. */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** A door over several databases: queues placed on shards, producers routing to them ({@link ShardedDbQueue}). */
    public static ShardedDbQueue.Builder builder(ShardSet shards) {
        return ShardedDbQueue.builder(shards);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * A producer of {@code queue}: its enqueues without a connection join the transaction of the
     * builder's {@link Builder#transactions} if the calling thread is in one, and wake the queue's
     * consumers (of any process) that listen.
     */
    public QueueProducer producer(QueueLocation queue) {
        return producer(queue, Wakeup.NOTIFY);
    }

    /**
     * As {@link #producer(QueueLocation)}, for a queue whose consumers wake as {@code consumers} says:
     * with {@link Wakeup#POLL} it sends no wakeups, so its enqueues skip even the check whether
     * anyone listens. Made without the door's lock: consumers starting against a slow database hold that lock, and
     * the request threads that ask for producers must not wait for them.
     */
    public QueueProducer producer(QueueLocation queue, Wakeup consumers) {
        open();
        maintenance.purgeKeys(queue.table());
        QueueProducer producer = new QueueProducer(dataSource, queue, listener, transactions, notifierFor(consumers));
        return interceptor == null ? producer : producer.intercepted(interceptor);
    }

    /**
     * A producer of {@code queue} that merges single enqueues from many threads into batches
     * ({@link CoalescingProducer}); it commits on its own connections and wakes the consumers as
     * {@link #producer(QueueLocation, Wakeup)} does. Closed with the door.
     */
    public synchronized CoalescingProducer coalescingProducer(QueueLocation queue, CoalescingProducer.Settings batching,
                                                              Wakeup consumers) {
        open();
        maintenance.purgeKeys(queue.table());
        CoalescingProducer producer = new CoalescingProducer(
                new QueueProducer(dataSource, queue, listener, Transactions.JDBC, notifierFor(consumers)), batching);
        producers.add(producer);
        return producer;
    }

    /**
     * The producer of the topic as created, waking the topic's idle readers: one per topic, the same for every call,
     * so that a call per send costs no threads (a new one once a caller closed it). Closed with the door. The topic
     * is looked up without the door's lock, and one already made is answered without it: a database that does not
     * answer holds up only the callers that need it, and a call per send takes no lock.
     */
    public TopicProducer topicProducer(String topicName) {
        open();
        TopicProducer existing = topicProducers.get(topicName);
        if (existing != null && !existing.isClosed()) { // closed by a caller: the next one gets a new producer
            return existing;
        }
        TopicProducer made = TopicProducer.withWakeups(dataSource, topicName, topicNotifyInterval, transactions);
        synchronized (this) {
            TopicProducer producer = topicProducers.get(topicName);
            if (closed || producer != null && !producer.isClosed()) { // another call made one meanwhile, or closed
                made.close();
                open();
                return producer;
            }
            producers.remove(producer);
            topicProducers.put(topicName, made);
            producers.add(made);
            return made;
        }
    }

    /** Starts workers consuming {@code config}'s queue with {@code handler}, on {@link QueueWorkers#threads}. */
    public QueueWorkers consume(QueueConfig config, BatchHandler handler) {
        return consume(config, handler, QueueWorkers.threads(Objects.requireNonNull(config, "config").location()));
    }

    /** As {@link #consume(QueueConfig, BatchHandler)}, on threads from {@code threads}. */
    public synchronized QueueWorkers consume(QueueConfig config, BatchHandler handler, ThreadFactory threads) {
        openToStart();
        return started(threads, held -> QueueWorkers.start(dataSource, config, handler, listenerFor(config), held,
                transactions));
    }

    /** Starts workers taking the queues of {@code group} in turn ({@link QueueWorkers#startGroup}). */
    public QueueWorkers consumeGroup(QueueConfig config, QueueGroup group, BatchHandler handler) {
        return consumeGroup(config, group, handler,
                QueueWorkers.threads(Objects.requireNonNull(config, "config").location()));
    }

    /** As {@link #consumeGroup(QueueConfig, QueueGroup, BatchHandler)}, on threads from {@code threads}. */
    public synchronized QueueWorkers consumeGroup(QueueConfig config, QueueGroup group, BatchHandler handler,
                                                  ThreadFactory threads) {
        openToStart();
        return started(threads, held -> QueueWorkers.startGroup(dataSource, config, group, handler,
                listenerFor(config), held, transactions));
    }

    /**
     * Starts workers that only claim, on threads from {@code threads}, and hand each batch to
     * {@code handlers}, with at most {@code maxBatchesInFlight} there ({@link QueueWorkers#startWithExecutor}).
     */
    public synchronized QueueWorkers consumeWithExecutor(QueueConfig config, BatchHandler handler,
                                                         ThreadFactory threads, Executor handlers,
                                                         int maxBatchesInFlight) {
        openToStart();
        return started(threads, held -> QueueWorkers.startWithExecutor(dataSource, config, handler,
                listenerFor(config), held, handlers, maxBatchesInFlight));
    }

    /**
     * Starts a member of {@code config}'s group reading its topic, woken when a producer appends. A member of the
     * same id still alive in this door is refused, stopping or not: two would hold, and read, the same partitions at
     * once, and the old one's leaving would release the new one's.
     */
    public synchronized GroupConsumer consumeTopic(GroupConfig config, RecordHandler handler) {
        openToStart();
        members.removeIf(m -> !m.isAlive()); // ended: the door's close has nothing to stop
        for (GroupConsumer running : members) {
            GroupConfig other = running.config();
            if (other.topic().equals(config.topic()) && other.group().equals(config.group())
                    && other.memberId().equals(config.memberId())) {
                throw new IllegalStateException("member " + config.memberId() + " of group " + config.group()
                        + " already reads topic " + config.topic() + " here; a second member needs an id of its own"
                        + " (GroupConfig.of(topic, group) makes one, or withMemberId)");
            }
        }
        GroupConsumer member = GroupConsumer.start(dataSource, config, handler, logListener);
        members.add(member);
        if (logWakeups == null) {
            logWakeups = LogWakeups.on(channels());
        }
        logWakeups.add(member);
        return member;
    }

    /**
     * An operator's hold on {@code queue}: its stats, pause and resume (observed within a second by the workers of
     * every door on the database), cancel and reschedule of waiting tasks, and its dead letters.
     */
    public QueueAdmin queueAdmin(QueueLocation queue) {
        return new QueueAdmin(dataSource, queue);
    }

    /**
     * The recurring tasks ({@link Schedules}): defined, listed, paused, triggered and deleted there. The
     * first call creates {@code dbq_schedules} if it is missing and starts taking due ticks, into the
     * queues through this door's producers; {@link #close} stops it.
     */
    public synchronized Schedules schedules() {
        openToStart();
        if (schedules == null) {
            schedules = Schedules.start(dataSource, transactions, this::producer, Clock.systemUTC(),
                    scheduleCheckInterval);
        }
        return schedules;
    }

    /** {@link #schedules} if they were started here (this process takes ticks), without starting them. */
    public synchronized Optional<Schedules> startedSchedules() {
        return Optional.ofNullable(schedules);
    }

    /** Whether the LISTEN connection that wakes this door's consumers is up; false before one needs it. */
    public synchronized boolean isListening() {
        return channels != null && channels.isListening();
    }

    /**
     * Stops taking schedule ticks, then stops the consumers (all stop claiming at once, then batches in progress get up to the
     * {@link Builder#shutdownTimeout} between them), flushes and closes the coalescing and topic
     * producers, then stops the wakeups, the notifier, the maintenance and the vacuum watch. While the batches
     * finish, their handlers can still take producers from the door (new consumers and schedules are refused);
     * after, the door refuses everything. Only the first call does anything; another call meanwhile returns when
     * it is done.
     */
    @Override
    public void close() {
        // A caller's interrupt (a cancelled task, a test's timeout) would cut every wait short: cleared, then set again.
        boolean interrupted = Thread.interrupted();
        try {
            closeUninterrupted();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeUninterrupted() {
        Schedules stoppingSchedules;
        List<GroupConsumer> stoppingMembers;
        List<QueueWorkers> stoppingWorkers;
        boolean alreadyClosing;
        synchronized (this) {
            alreadyClosing = closing;
            closing = true;
            stoppingSchedules = schedules;
            stoppingMembers = List.copyOf(members);
            stoppingWorkers = List.copyOf(workers);
        }
        if (alreadyClosing) {
            awaitClosed(); // returns as the first call does: with everything closed
            return;
        }
        // Waited for without the door's lock: a handler finishing its batch may still ask it for a producer.
        try {
            closeQuietly(stoppingSchedules);
            long deadline = System.nanoTime() + shutdownTimeout.toNanos();
            stoppingMembers.forEach(GroupConsumer::stopReading);
            QueueWorkers.shutdownAll(stoppingWorkers, shutdownTimeout);
            GroupConsumer.shutdownAll(stoppingMembers, left(deadline));
            synchronized (this) {
                closed = true;
                producers.forEach(DbQueue::closeQuietly);
                closeQuietly(pauses);
                closeQuietly(channels);
                synchronized (notifierLock) { // one made meanwhile is closed here, or saw the door closed
                    closeQuietly(notifier);
                }
                maintenance.close();
                closeQuietly(watch);
            }
        } finally {
            closeDone.countDown();
        }
    }

    private void awaitClosed() {
        try {
            closeDone.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the first call finishes the closing
        }
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", closeable, e.toString());
        }
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("this DbQueue is closed");
        }
    }

    /** For what starts work (consumers, schedules): refused once {@link #close} began. */
    private void openToStart() {
        if (closing) {
            throw new IllegalStateException("this DbQueue is closed");
        }
    }

    /**
     * The builder's listener, the vacuum of the config's table and the failure log; the table's history, created now,
     * is kept from now on if the config keeps one.
     */
    private QueueListener listenerFor(QueueConfig config) {
        QueueTable table = config.location().table();
        maintenance.purgeKeys(table);
        if (config.history() != null) {
            maintenance.keepHistory(table, config.history());
        }
        QueueListener vacuum = maintenance.vacuum(table, vacuumByTable.getOrDefault(table, defaultVacuum));
        List<QueueListener> listeners = List.of(vacuum, failureLog, listener).stream()
                .filter(l -> l != QueueListener.NONE).toList();
        return listeners.size() == 1 ? listeners.get(0) : QueueListener.composite(listeners);
    }

    /**
     * Starts workers through {@code start} on {@code threads}, each thread held until the pause watch has read their
     * queues' pauses, so that a queue an operator paused is not claimed from once by a process that starts. Threads
     * started before {@code start} failed are let go without working.
     */
    private QueueWorkers started(ThreadFactory threads, Function<ThreadFactory, QueueWorkers> start) {
        Objects.requireNonNull(threads, "threads");
        CountDownLatch watched = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        QueueWorkers started;
        try {
            started = start.apply(work -> threads.newThread(() -> {
                try {
                    watched.await();
                } catch (InterruptedException e) { // only a stop interrupts the workers: nothing to work for
                    Thread.currentThread().interrupt();
                    return;
                }
                if (!failed.get()) {
                    work.run();
                }
            }));
        } catch (RuntimeException | Error e) {
            failed.set(true);
            watched.countDown();
            throw e;
        }
        try {
            workers.removeIf(w -> !w.isRunning()); // shut down on their own: the door's close has nothing to stop
            workers.add(started);
            if (pauses == null) {
                pauses = PauseWatch.start(dataSource, PauseWatch.DEFAULT_INTERVAL);
            }
            pauses.add(started);
        } finally {
            watched.countDown();
        }
        if (started.config().wakeup() != Wakeup.POLL) {
            if (queueWakeups == null) {
                queueWakeups = QueueWakeups.on(channels());
            }
            queueWakeups.add(started);
        }
        return started;
    }

    private ChannelListener channels() {
        if (channels == null) {
            channels = ChannelListener.start(dataSource, "dbq-wakeups");
        }
        return channels;
    }

    /** The shared notifier, or null for consumers that only poll. */
    private QueueNotifier notifierFor(Wakeup consumers) {
        if (consumers == Wakeup.POLL) {
            return null;
        }
        QueueNotifier made = notifier;
        if (made != null) {
            return made;
        }
        synchronized (notifierLock) {
            open(); // close() sets closed before it closes the notifier under this lock
            if (notifier == null) {
                notifier = new QueueNotifier(dataSource, notifyInterval);
            }
            return notifier;
        }
    }

    /** How a {@link DbQueue} is built; every setting has a default. */
    public static final class Builder {

        private record Retention(RetentionPolicy policy, Duration interval) {
        }

        private final DataSource dataSource;
        private Transactions transactions = Transactions.JDBC;
        private QueueListener listener = QueueListener.NONE;
        private EnqueueInterceptor interceptor;
        private LogListener logListener = LogListener.NONE;
        private FailureLog.Level failureLogging = FailureLog.Level.WARN;
        private Duration notifyInterval = QueueNotifier.DEFAULT_INTERVAL;
        private Duration topicNotifyInterval; // null: the notifyInterval
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private Duration keyRetention = Duration.ofHours(24);
        private VacuumPolicy defaultVacuum = VacuumPolicy.DEFAULT;
        private final Map<QueueTable, VacuumPolicy> vacuum = new HashMap<>();
        private final Map<String, Retention> retention = new HashMap<>();
        private VacuumWatch watch;
        private Duration watchInterval;
        private Duration scheduleCheckInterval = Duration.ofSeconds(10);

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * The transactions producers join and queues' exactly-once batches run in; default
         * {@link Transactions#JDBC} (plain JDBC: none to join, the library's own otherwise). A topic's exactly-once
         * batch runs in a transaction of its own connection, {@link io.dbqueue.log.RecordBatch#connection()}: the
         * handler's SQL commits with the offset only there.
         */
        public Builder transactions(Transactions value) {
            this.transactions = Objects.requireNonNull(value, "transactions");
            return this;
        }

        /** Hears of every queue producer's and consumer's work, e.g. for metrics; default none. */
        public Builder listener(QueueListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /**
         * Runs around every enqueue call of this door's {@link #producer}s, e.g. to put a trace context into the
         * tasks' headers; default none. Given more than once, the interceptors nest, the first given outermost, so
         * that one (a tracing starter's) does not silently replace another. The coalescing producers' merged batches
         * are not intercepted.
         */
        public Builder enqueueInterceptor(EnqueueInterceptor value) {
            Objects.requireNonNull(value, "enqueueInterceptor");
            EnqueueInterceptor outer = interceptor;
            this.interceptor = outer == null ? value : new EnqueueInterceptor() {
                @Override
                public <T> T around(QueueLocation queue, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
                        throws SQLException {
                    return outer.around(queue, tasks, headers, () -> value.around(queue, tasks, headers, enqueue));
                }
            };
            return this;
        }

        /**
         * Which failures of the consumers' tasks are logged, rate-limited per queue ({@link FailureLog}): default
         * {@code WARN}, each failed attempt at WARN and each dead-lettering at ERROR; {@code ERROR} only the
         * dead-letterings; {@code OFF} none.
         */
        public Builder failureLogging(FailureLog.Level value) {
            this.failureLogging = Objects.requireNonNull(value, "failureLogging");
            return this;
        }

        /** Hears of every topic member's work; default none. */
        public Builder logListener(LogListener value) {
            this.logListener = Objects.requireNonNull(value, "logListener");
            return this;
        }

        /**
         * At most one wakeup notification per queue per this, and per topic unless {@link #topicNotifyInterval} says
         * otherwise; zero sends one per enqueue (no coalescing). Default {@link QueueNotifier#DEFAULT_INTERVAL}.
         */
        public Builder notifyInterval(Duration notifyInterval) {
            Checks.notNegative("notifyInterval", notifyInterval);
            this.notifyInterval = notifyInterval;
            return this;
        }

        /** At most one wakeup notification per topic per this, for the {@link #topicProducer}s; default the {@link #notifyInterval}. */
        public Builder topicNotifyInterval(Duration topicNotifyInterval) {
            Checks.notNegative("topicNotifyInterval", topicNotifyInterval);
            this.topicNotifyInterval = topicNotifyInterval;
            return this;
        }

        /** How long {@link DbQueue#close} waits for batches in progress; default 30 seconds. */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            Checks.notNegative("shutdownTimeout", shutdownTimeout);
            this.shutdownTimeout = shutdownTimeout;
            return this;
        }

        /** How long an idempotency key answers repeats before it is purged; default 24 hours. */
        public Builder idempotencyKeyRetention(Duration idempotencyKeyRetention) {
            Checks.positive("idempotencyKeyRetention", idempotencyKeyRetention);
            this.keyRetention = idempotencyKeyRetention;
            return this;
        }

        /** When the tables of this door's consumers are vacuumed; default {@link VacuumPolicy#DEFAULT}. */
        public Builder vacuum(VacuumPolicy value) {
            this.defaultVacuum = Objects.requireNonNull(value, "vacuum");
            return this;
        }

        /** When {@code table} is vacuumed, unlike the others. */
        public Builder vacuum(QueueTable table, VacuumPolicy value) {
            vacuum.put(Objects.requireNonNull(table, "table"), Objects.requireNonNull(value, "vacuum"));
            return this;
        }

        /** Applies {@code policy} to {@code topicName} every {@code retentionInterval}; by default a topic keeps everything. */
        public Builder retention(String topicName, RetentionPolicy policy, Duration retentionInterval) {
            Checks.positive("retentionInterval", retentionInterval);
            retention.put(Objects.requireNonNull(topicName, "topicName"),
                    new Retention(Objects.requireNonNull(policy, "policy"), retentionInterval));
            return this;
        }

        /** Runs {@code value}'s check every {@code interval} while the door is open; by default nothing is watched. */
        public Builder vacuumWatch(VacuumWatch value, Duration interval) {
            Checks.positive("interval", interval);
            this.watch = Objects.requireNonNull(value, "vacuumWatch");
            this.watchInterval = interval;
            return this;
        }

        /**
         * How often the {@link DbQueue#schedules} look for due ticks besides the earliest they know of,
         * which finds what other processes changed (a resumed schedule); default 10 seconds.
         */
        public Builder scheduleCheckInterval(Duration scheduleCheckInterval) {
            Checks.positive("scheduleCheckInterval", scheduleCheckInterval);
            this.scheduleCheckInterval = scheduleCheckInterval;
            return this;
        }

        /** Opens the door: starts the maintenance (and the vacuum watch, if any); consumers start as they are asked for. */
        public DbQueue build() {
            return new DbQueue(this);
        }
    }
}
