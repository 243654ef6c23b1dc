package io.dbqueue.spring;

import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.QueueNotifier;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.Wakeup;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code dbq.*} properties. They are bound as given and validated by {@link QueueDefinitions},
 * which names the offending property when a value is wrong.
 */
@ConfigurationProperties("dbq")
public class DbQueueProperties {

    /** Whether the db-queue auto-configuration is active. */
    private boolean enabled = true;

    /**
     * When to create each queue's tables (task, dead-letter and idempotency-key tables) from its layout
     * at start-up where they do not exist, as Spring Boot's own schema initialization: always,
     * embedded (only on an embedded database as Spring Boot counts them, so never on PostgreSQL) or
     * never. Where they are not created, a missing table fails start-up: create them with a migration
     * (the DDL of every layout is on the classpath as io/dbqueue/sql/<layout>.sql).
     */
    private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

    /**
     * Whether the consumers' workers start with the application context; off, they start when
     * QueueConsumerWorkers#start() is called (producers work either way).
     */
    private boolean autoStartup = true;

    /** How long stopping the application waits for batches in progress before interrupting the workers. */
    private Duration shutdownTimeout = Duration.ofSeconds(30);

    /** At most one wakeup notification per queue per this interval, for queues with wakeup=notify or adaptive. */
    private Duration notifyInterval = QueueNotifier.DEFAULT_INTERVAL;

    /**
     * How long an idempotency key answers repeats with its first task's id (how long a client may take
     * to retry); older keys are purged from every configured queue table.
     */
    private Duration idempotencyKeyRetention = Duration.ofHours(24);

    /** The queues, by id: the id names the queue in DbQueues, in QueueConsumer#queueId() and in the metrics' queue tag. */
    private Map<String, Queue> queues = new LinkedHashMap<>();

    /**
     * Groups of queues of one table consumed fairly by one consumer (e.g. a queue per tenant), by id:
     * the id is the consumer's QueueConsumer#queueId().
     */
    private Map<String, Group> groups = new LinkedHashMap<>();

    /** The queue ids configured under dbq.queues, read before the properties are bound (a condition, a registrar). */
    static Set<String> queueIds(Environment environment) {
        return Binder.get(environment).bind("dbq.queues", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of()).keySet();
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public DatabaseInitializationMode getInitializeSchema() {
        return initializeSchema;
    }

    public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
        this.initializeSchema = initializeSchema;
    }

    public boolean isAutoStartup() {
        return autoStartup;
    }

    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public Duration getNotifyInterval() {
        return notifyInterval;
    }

    public void setNotifyInterval(Duration notifyInterval) {
        this.notifyInterval = notifyInterval;
    }

    public Duration getIdempotencyKeyRetention() {
        return idempotencyKeyRetention;
    }

    public void setIdempotencyKeyRetention(Duration idempotencyKeyRetention) {
        this.idempotencyKeyRetention = idempotencyKeyRetention;
    }

    public Map<String, Queue> getQueues() {
        return queues;
    }

    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    public Map<String, Group> getGroups() {
        return groups;
    }

    public void setGroups(Map<String, Group> groups) {
        this.groups = groups;
    }

    /**
     * Queues of one table consumed fairly by one set of workers: each claim starts at the next queue
     * in turn and moves on past empty ones, so a backlog in one queue cannot hold up the others. The
     * workers run as the first queue's settings say.
     */
    public static class Group {

        /** Ids of queues under dbq.queues, all on one table, each in at most one group. */
        private List<String> queues = new ArrayList<>();

        /** The most workers on one queue at once, so that some stay free for the others. */
        private int maxWorkersPerQueue = 1;

        public List<String> getQueues() {
            return queues;
        }

        public void setQueues(List<String> queues) {
            this.queues = queues;
        }

        public int getMaxWorkersPerQueue() {
            return maxWorkersPerQueue;
        }

        public void setMaxWorkersPerQueue(int maxWorkersPerQueue) {
            this.maxWorkersPerQueue = maxWorkersPerQueue;
        }
    }

    /** One queue: where it lives and how it is consumed. */
    public static class Queue {

        /** The queue table, e.g. queue_tasks_5. Required. */
        private String table;

        /** The table's layout preset, e.g. queue_tasks_5 or dbq_seq. Defaults to the table name when that is a preset name. */
        private QueueLayout layout;

        /** The queue's name within its table (the queue_name column). Defaults to the queue id. */
        private String queueName;

        /**
         * Delivery mode: at-least-once, exactly-once or at-most-once (the experiment's separate-transactions
         * and wrap-in-transaction are accepted as aliases), or external-executor: at-least-once with the
         * worker threads only claiming and the executor bean named by executor (by default
         * applicationTaskExecutor) handling the batches.
         */
        private QueueMode mode = QueueMode.AT_LEAST_ONCE;

        /** Worker threads polling this queue. */
        private int threads = 1;

        /** Tasks claimed per poll. */
        private int batchSize = 10;

        /** Pause after a poll that returned fewer tasks than the batch size. */
        private Duration betweenTaskTimeout = Duration.ofMillis(10);

        /** Pause after a poll that returned no task. */
        private Duration noTaskTimeout = Duration.ofMillis(100);

        /** Pause after a failed poll (e.g. database unreachable); doubles on consecutive failures up to 32 times this. */
        private Duration fatalCrashTimeout = Duration.ofSeconds(1);

        /**
         * How long an at-least-once claim hides a task from other consumers: a consumer that dies has its
         * tasks handed out again after this long. Heartbeats extend it while a handler runs.
         */
        private Duration leaseTimeout = Duration.ofSeconds(30);

        /**
         * Whether the leases of a running at-least-once batch are extended every third of the lease, so a
         * handler may run longer than lease-timeout; off, a task whose handler outlives the lease is handed
         * out again while it runs.
         */
        private boolean leaseHeartbeat = true;

        /**
         * Whether the workers run on virtual threads; only honoured on JDK 21 and later. Unset, they do
         * when spring.threads.virtual.enabled is true.
         */
        private Boolean virtualThreads;

        /**
         * How idle consumers learn of new tasks: poll (every no-task-timeout), notify (producers send
         * coalesced LISTEN/NOTIFY wakeups and consumers still poll, so no-task-timeout can be long) or
         * adaptive (notify while the consumers keep up, polling every between-task-timeout and no
         * notifications while nearly every claim comes back full).
         */
        private Wakeup wakeup = Wakeup.POLL;

        /**
         * Name of a java.util.concurrent.Executor bean that handles and acknowledges the batches, so that
         * the worker threads only claim (the experiment's external executor). Not with exactly-once.
         */
        private String executor;

        /** With an executor: how many claimed batches may be with it at once. Defaults to threads. */
        private Integer maxBatchesInFlight;

        /** When failed tasks are tried again. */
        private final Retry retry = new Retry();

        /** When the workers vacuum their table themselves, so that a stock server's once-a-minute autovacuum suffices. */
        private final Vacuum vacuum = new Vacuum();

        /** The queue's coalescing producer. */
        private final Coalesce coalesce = new Coalesce();

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public QueueLayout getLayout() {
            return layout;
        }

        public void setLayout(QueueLayout layout) {
            this.layout = layout;
        }

        public String getQueueName() {
            return queueName;
        }

        public void setQueueName(String queueName) {
            this.queueName = queueName;
        }

        public QueueMode getMode() {
            return mode;
        }

        public void setMode(QueueMode mode) {
            this.mode = mode;
        }

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }

        public int getBatchSize() {
            return batchSize;
        }

        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }

        public Duration getBetweenTaskTimeout() {
            return betweenTaskTimeout;
        }

        public void setBetweenTaskTimeout(Duration betweenTaskTimeout) {
            this.betweenTaskTimeout = betweenTaskTimeout;
        }

        public Duration getNoTaskTimeout() {
            return noTaskTimeout;
        }

        public void setNoTaskTimeout(Duration noTaskTimeout) {
            this.noTaskTimeout = noTaskTimeout;
        }

        public Duration getFatalCrashTimeout() {
            return fatalCrashTimeout;
        }

        public void setFatalCrashTimeout(Duration fatalCrashTimeout) {
            this.fatalCrashTimeout = fatalCrashTimeout;
        }

        public Duration getLeaseTimeout() {
            return leaseTimeout;
        }

        public void setLeaseTimeout(Duration leaseTimeout) {
            this.leaseTimeout = leaseTimeout;
        }

        public boolean isLeaseHeartbeat() {
            return leaseHeartbeat;
        }

        public void setLeaseHeartbeat(boolean leaseHeartbeat) {
            this.leaseHeartbeat = leaseHeartbeat;
        }

        public Boolean getVirtualThreads() {
            return virtualThreads;
        }

        public void setVirtualThreads(Boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }

        public Wakeup getWakeup() {
            return wakeup;
        }

        public void setWakeup(Wakeup wakeup) {
            this.wakeup = wakeup;
        }

        public String getExecutor() {
            return executor;
        }

        public void setExecutor(String executor) {
            this.executor = executor;
        }

        public Integer getMaxBatchesInFlight() {
            return maxBatchesInFlight;
        }

        public void setMaxBatchesInFlight(Integer maxBatchesInFlight) {
            this.maxBatchesInFlight = maxBatchesInFlight;
        }

        public Vacuum getVacuum() {
            return vacuum;
        }

        public Retry getRetry() {
            return retry;
        }

        public Coalesce getCoalesce() {
            return coalesce;
        }
    }

    /** When a queue's workers vacuum their table themselves. */
    public static class Vacuum {

        /** Claimed tasks after which the workers vacuum their table; 0 leaves it to autovacuum. */
        private long claimedTasks = VacuumPolicy.DEFAULT.claimedTasks();

        /** The least time between two of the workers' vacuums. */
        private Duration minInterval = VacuumPolicy.DEFAULT.minInterval();

        public long getClaimedTasks() {
            return claimedTasks;
        }

        public void setClaimedTasks(long claimedTasks) {
            this.claimedTasks = claimedTasks;
        }

        public Duration getMinInterval() {
            return minInterval;
        }

        public void setMinInterval(Duration minInterval) {
            this.minInterval = minInterval;
        }
    }

    /**
     * A queue's coalescing producer ({@code DbQueues.coalescingProducer(id)}): concurrent single
     * enqueues merged into one statement per batch, each caller answered after its batch commits.
     */
    public static class Coalesce {

        /**
         * How long a batch waits for more tasks after its first, as a Kafka producer's linger.ms; at 0 a
         * batch is written at once when none is being written, and gathers while one is.
         */
        private Duration linger = Duration.ZERO;

        /** The most tasks in one batch; a full batch is written at once. */
        private int maxBatch = 100;

        public Duration getLinger() {
            return linger;
        }

        public void setLinger(Duration linger) {
            this.linger = linger;
        }

        public int getMaxBatch() {
            return maxBatch;
        }

        public void setMaxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
        }
    }

    /** Retry policy of a queue: the n-th failure waits interval * 2^(n-1) (geometric), interval * (2n-1) (arithmetic) or interval (linear). */
    public static class Retry {

        /** Retry type: geometric, arithmetic or linear. */
        private RetryType type = RetryType.GEOMETRIC;

        /** Base delay before a failed task is tried again. */
        private Duration interval = Duration.ofSeconds(1);

        /** Attempts before a failing task moves to the dead-letter table. */
        private int maxAttempts = 10;

        /** Random extra share (0 to 1) of each delay, so that tasks that failed together do not retry together. */
        private double jitter = 0.0;

        /**
         * The longest delay between two attempts, however many failed before; at least the interval.
         * Unset: one day, or the interval when that is longer.
         */
        private Duration maxDelay;

        public RetryType getType() {
            return type;
        }

        public void setType(RetryType type) {
            this.type = type;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public int getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public double getJitter() {
            return jitter;
        }

        public void setJitter(double jitter) {
            this.jitter = jitter;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }
    }
}
