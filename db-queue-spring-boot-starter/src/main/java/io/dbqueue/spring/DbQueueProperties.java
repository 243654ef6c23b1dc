package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.FailureLog;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueLimits;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.Wakeup;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;

/**
 * The {@code dbq.*} properties, bound as given and mapped to the core's configuration, whose checks name the
 * offending property ({@link InvalidQueuePropertyException}).
 *
 * @param enabled                 Whether the db-queue auto-configuration is active.
 * @param initializeSchema        When to create each queue's tables (task, dead-letter and idempotency-key
 *                                tables) from its layout at start-up where they do not exist, as Spring Boot's
 *                                own schema initialization: always, embedded (only on an embedded database as
 *                                Spring Boot counts them, so never on PostgreSQL) or never. Where they are not
 *                                created, a missing table fails start-up: create them with a migration (the DDL
 *                                of every layout is on the classpath in io/dbqueue/sql, a file per layout).
 * @param autoStartup             Whether the consumers' workers start with the application context; off, they
 *                                start when QueueConsumerWorkers#start() is called (producers work either way).
 * @param shutdownTimeout         How long stopping the application waits for batches in progress before
 *                                interrupting the workers.
 * @param notifyInterval          At most one wakeup notification per queue per this interval, for queues with
 *                                wakeup=notify or adaptive.
 * @param idempotencyKeyRetention How long an idempotency key answers repeats with its first task's id (how long
 *                                a client may take to retry); older keys are purged from every configured queue
 *                                table.
 * @param failureLogging          Which failures of the consumers' tasks are logged, at most 10 lines of each kind
 *                                per queue per minute: warn logs each failed attempt at WARN and each task moved to
 *                                the dead letters at ERROR; error logs only the dead-letterings; off logs none.
 * @param observationEnabled      Whether enqueues and handled tasks are observed with the application's Micrometer
 *                                ObservationRegistry (dbq.enqueue and dbq.process observations, e.g. spans whose
 *                                trace context travels with each task in its headers), as spring.kafka's and
 *                                spring.rabbitmq's observation-enabled do.
 * @param queues                  The queues, by id: the id names the queue in DbQueues, in QueueConsumer#queueId()
 *                                and in the metrics' queue tag.
 * @param groups                  Groups of queues of one table consumed fairly by one consumer (e.g. a queue per
 *                                tenant), by id: the id is the consumer's QueueConsumer#queueId().
 * @param shards                  PostgreSQL servers (or databases) to spread the queues over, by shard name: each
 *                                queue lives on the shard its shard property names, else on the one a stable hash
 *                                of its queue name picks. Unset: every queue is in the application's DataSource.
 */
@ConfigurationProperties("dbq")
public record DbQueueProperties(@DefaultValue("true") boolean enabled,
                                @DefaultValue("embedded") DatabaseInitializationMode initializeSchema,
                                @DefaultValue("true") boolean autoStartup,
                                @DefaultValue("30s") Duration shutdownTimeout,
                                @DefaultValue("2ms") Duration notifyInterval,
                                @DefaultValue("24h") Duration idempotencyKeyRetention,
                                @DefaultValue("warn") FailureLog.Level failureLogging,
                                @DefaultValue("false") boolean observationEnabled,
                                Map<String, Queue> queues, Map<String, Group> groups, Map<String, Shard> shards) {

    public DbQueueProperties {
        queues = queues == null ? Map.of() : queues;
        groups = groups == null ? Map.of() : groups;
        shards = shards == null ? Map.of() : shards;
    }

    /** The queue ids configured under dbq.queues, read before the properties are bound (a condition, a registrar). */
    static Set<String> queueIds(Environment environment) {
        return Binder.get(environment).bind("dbq.queues", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of()).keySet();
    }

    /** Each queue's configuration by id, all checked, the groups included: a bad value fails naming its property. */
    public Map<String, QueueConfig> configs() {
        Map<String, QueueConfig> configs = new LinkedHashMap<>();
        Map<QueueLocation, String> ids = new HashMap<>();
        queues.forEach((id, queue) -> {
            QueueConfig config = queue.config(id);
            String other = ids.putIfAbsent(config.location(), id);
            if (other != null) {
                throw new InvalidQueuePropertyException("dbq.queues." + other + " and dbq.queues." + id
                        + " both name queue " + config.location() + "; give one of them another queue-name");
            }
            configs.put(id, config);
        });
        queueGroups(configs);
        return configs;
    }

    /** The groups as the core's, by id, checked against the queues' {@code configs}. */
    Map<String, QueueGroup> queueGroups(Map<String, QueueConfig> configs) {
        Map<String, QueueGroup> result = new LinkedHashMap<>();
        Map<String, String> groupOfQueue = new HashMap<>();
        groups.forEach((id, group) -> {
            String prefix = "dbq.groups." + id + ".queues";
            if (queues.containsKey(id)) {
                throw new InvalidQueuePropertyException("dbq.groups." + id
                        + ": the id is taken by another queue or group; consumers name one or the other");
            }
            if (group.queues().isEmpty()) {
                throw new InvalidQueuePropertyException(prefix + " must name at least one queue of dbq.queues");
            }
            String first = group.queues().get(0);
            for (String member : group.queues()) {
                QueueConfig config = configs.get(member);
                if (config == null) {
                    throw new InvalidQueuePropertyException(prefix + " names '" + member
                            + "', which is not configured under dbq.queues (configured: " + configs.keySet() + ")");
                }
                String other = groupOfQueue.putIfAbsent(member, id);
                if (other != null) {
                    throw new InvalidQueuePropertyException(prefix + " names '" + member + "'" + (other.equals(id)
                            ? " twice" : ", which is in group '" + other + "' already; a queue belongs to one group at most"));
                }
                QueueTable table = configs.get(first).location().table();
                if (!config.location().table().equals(table)) {
                    throw new InvalidQueuePropertyException(prefix + " must all be on one table: '" + first + "' is on "
                            + table.name() + ", '" + member + "' on " + config.location().table().name());
                }
                Wakeup wakeup = configs.get(first).wakeup(); // the group's workers listen as the first queue says
                if (config.wakeup() != wakeup) {
                    throw new InvalidQueuePropertyException(prefix + ": '" + member + "' has wakeup " + lower(config.wakeup())
                            + " and '" + first + "' " + lower(wakeup) + "; a group's queues wake alike");
                }
                if (queues.get(member).executorBean() != null) {
                    throw new InvalidQueuePropertyException(prefix + ": '" + member + "' names an executor; a group's"
                            + " workers handle their batches themselves");
                }
            }
            result.put(id, check("dbq.groups." + id, () -> new QueueGroup(configs.get(first).location().table(),
                    group.queues().stream().map(q -> configs.get(q).location().queueName()).toList(),
                    group.maxWorkersPerQueue())));
        });
        return result;
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * Queues of one table consumed fairly by one set of workers: each claim starts at the next queue in turn and
     * moves on past empty ones, so a backlog in one queue cannot hold up the others. The workers run as the first
     * queue's settings say.
     *
     * @param queues             Ids of queues under dbq.queues, all on one table, each in at most one group.
     * @param maxWorkersPerQueue The most workers on one queue at once, so that some stay free for the others.
     */
    public record Group(List<String> queues, @DefaultValue("1") int maxWorkersPerQueue) {

        public Group {
            queues = queues == null ? List.of() : queues;
        }
    }

    /**
     * One queue: where it lives and how it is consumed.
     *
     * @param table              The queue table, e.g. queue_tasks_5. Required.
     * @param layout             The table's layout preset, e.g. queue_tasks_5 or dbq_seq. Defaults to the table
     *                           name when that is a preset name.
     * @param queueName          The queue's name within its table (the queue_name column). Defaults to the queue id.
     * @param mode               Delivery mode: at-least-once, exactly-once or at-most-once, or external-executor:
     *                           at-least-once with the worker threads only claiming and the executor bean named by
     *                           executor (by default applicationTaskExecutor) handling the batches.
     * @param threads            Worker threads polling this queue.
     * @param batchSize          Tasks claimed per poll.
     * @param betweenTaskTimeout Pause after a poll that returned fewer tasks than the batch size.
     * @param noTaskTimeout      Pause after a poll that returned no task.
     * @param fatalCrashTimeout  Pause after a failed poll (e.g. database unreachable); doubles on consecutive
     *                           failures up to 32 times this.
     * @param leaseTimeout       How long an at-least-once claim hides a task from other consumers: a consumer that
     *                           dies has its tasks handed out again after this long. Heartbeats extend it while a
     *                           handler runs.
     * @param leaseHeartbeat     Whether the leases of a running at-least-once batch are extended every third of the
     *                           lease, so a handler may run longer than lease-timeout; off, a task whose handler
     *                           outlives the lease is handed out again while it runs.
     * @param virtualThreads     Whether the workers run on virtual threads; only honoured on JDK 21 and later.
     *                           Unset, they do when spring.threads.virtual.enabled is true.
     * @param wakeup             How idle consumers learn of new tasks: poll (every no-task-timeout), notify
     *                           (producers send coalesced LISTEN/NOTIFY wakeups and consumers still poll, so
     *                           no-task-timeout can be long) or adaptive (notify while the consumers keep up,
     *                           polling every between-task-timeout and no notifications while nearly every claim
     *                           comes back full).
     * @param executor           Name of a java.util.concurrent.Executor bean that handles and acknowledges the
     *                           batches, so that the worker threads only claim (the experiment's external
     *                           executor). Not with exactly-once.
     * @param maxBatchesInFlight With an executor: how many claimed batches may be with it at once. Defaults to
     *                           threads.
     * @param retry              When failed tasks are tried again.
     * @param vacuum             When the workers vacuum their table themselves, so that a stock server's
     *                           once-a-minute autovacuum suffices.
     * @param coalesce           The queue's coalescing producer.
     * @param rateLimit          Tasks started per second by all consumers of the queue together, in every instance
     *                           (kept in the database); unset: no rate limit. Not with exactly-once.
     * @param maxInFlight        The most tasks of the queue being handled at once by all its consumers together,
     *                           in every instance; a dead instance's places come back when its leases expire.
     *                           0: no limit. Not with exactly-once.
     * @param perKey             The most tasks with the same key (the value of a task header, e.g. a customer)
     *                           being handled at once by all consumers together, in every instance; unset: no
     *                           per-key limit. At-least-once only.
     * @param history            How long finished tasks are kept in the table's history (TABLE_done, partitioned by
     *                           finish time and dropped a whole partition at a time), where the endpoint and the
     *                           dashboard still find them as DONE; e.g. 1d. Unset: a finished task is deleted. Not
     *                           with at-most-once.
     * @param shard              The dbq.shards shard the queue lives on. Unset: the one a stable hash of its queue
     *                           name picks. Only with dbq.shards.
     */
    public record Queue(String table, QueueLayout layout, String queueName,
                        @DefaultValue("at-least-once") QueueMode mode,
                        @DefaultValue("1") int threads,
                        @DefaultValue("10") int batchSize,
                        @DefaultValue("10ms") Duration betweenTaskTimeout,
                        @DefaultValue("100ms") Duration noTaskTimeout,
                        @DefaultValue("1s") Duration fatalCrashTimeout,
                        @DefaultValue("30s") Duration leaseTimeout,
                        @DefaultValue("true") boolean leaseHeartbeat,
                        Boolean virtualThreads,
                        @DefaultValue("poll") Wakeup wakeup,
                        String executor,
                        Integer maxBatchesInFlight,
                        @DefaultValue Retry retry,
                        @DefaultValue Vacuum vacuum,
                        @DefaultValue Coalesce coalesce,
                        @DefaultValue RateLimit rateLimit,
                        @DefaultValue("0") int maxInFlight,
                        @DefaultValue PerKey perKey,
                        Duration history,
                        String shard) {

        /** The core's configuration of queue {@code id}, its vacuum, coalescing and executor checked too. */
        QueueConfig config(String id) {
            String prefix = "dbq.queues." + id;
            if (table == null || table.isBlank()) {
                throw new InvalidQueuePropertyException(prefix + ".table is required");
            }
            QueueLocation location = check(prefix, () -> new QueueTable(table, layout(prefix))
                    .queue(queueName == null ? id : queueName));
            RetryPolicy retryPolicy = check(prefix + ".retry", retry::policy);
            QueueLimits limits = limits(prefix);
            if (limits.any() && mode.deliveryMode() == DeliveryMode.EXACTLY_ONCE) {
                throw new InvalidQueuePropertyException(prefix + ".rate-limit, .max-in-flight and .per-key cannot"
                        + " be used with mode exactly-once: its claim and handler share one transaction, which would"
                        + " hold the queue's limit throughout");
            }
            QueueConfig config = check(prefix, () -> new QueueConfig(location, mode.deliveryMode(), threads,
                    new PollSettings(batchSize, betweenTaskTimeout, noTaskTimeout, fatalCrashTimeout), retryPolicy,
                    leaseTimeout, leaseHeartbeat, wakeup, limits, history));
            vacuumPolicy(id);
            coalescing(id);
            if (executorBean() == null && maxBatchesInFlight != null) {
                throw new InvalidQueuePropertyException(prefix + ".max-batches-in-flight applies only with an executor:"
                        + " set " + prefix + ".executor or " + prefix + ".mode=external-executor");
            }
            if (executorBean() != null && config.mode() == DeliveryMode.EXACTLY_ONCE) {
                throw new InvalidQueuePropertyException(prefix + ".executor cannot be used with mode exactly-once:"
                        + " exactly-once claims, handles and finishes a batch in one transaction on the worker's thread");
            }
            if (executorBean() != null && batchesInFlight() < 1) {
                throw new InvalidQueuePropertyException(prefix + ".max-batches-in-flight must be at least 1, was "
                        + batchesInFlight());
            }
            return config;
        }

        private QueueLimits limits(String prefix) {
            QueueLimits rate = rateLimit.perSecond() == 0 ? QueueLimits.NONE
                    : check(prefix + ".rate-limit", () -> QueueLimits.rate(rateLimit.perSecond(), rateLimit.bucketSize()));
            QueueLimits inFlight = check(prefix, () -> rate.withMaxInFlight(maxInFlight));
            return check(prefix, () -> inFlight.withMaxPerKey(perKey.header(), perKey.maxInFlight()));
        }

        VacuumPolicy vacuumPolicy(String id) {
            return check("dbq.queues." + id + ".vacuum", () -> new VacuumPolicy(vacuum.claimedTasks(), vacuum.minInterval()));
        }

        CoalescingProducer.Settings coalescing(String id) {
            return check("dbq.queues." + id + ".coalesce",
                    () -> new CoalescingProducer.Settings(coalesce.linger(), coalesce.maxBatch()));
        }

        /** The name of the Executor bean that handles the batches (by default Spring Boot's); null when the workers do. */
        String executorBean() {
            return executor != null && !executor.isBlank() ? executor.trim()
                    : mode == QueueMode.EXTERNAL_EXECUTOR ? "applicationTaskExecutor" : null;
        }

        int batchesInFlight() {
            return maxBatchesInFlight == null ? threads : maxBatchesInFlight;
        }

        private Layout layout(String prefix) {
            return layout != null ? layout.layout() : Layout.presets().stream().filter(l -> l.name().equals(table))
                    .findFirst().orElseThrow(() -> new InvalidQueuePropertyException(prefix + ".layout must be given"
                            + " when the table '" + table + "' is not named after a preset; known layouts: "
                            + Layout.presets().stream().map(Layout::name).toList()));
        }
    }

    /**
     * One shard: a PostgreSQL server (or database) holding the queue tables, reached through a HikariCP pool of its
     * own. The credentials may come from the environment by Spring's relaxed binding, e.g. DBQ_SHARDS_A_PASSWORD.
     *
     * @param url               The shard's JDBC URL, e.g. jdbc:postgresql://db-a:5432/app. Required.
     * @param username          The user the pool logs in as.
     * @param password          The user's password.
     * @param maximumPoolSize   The most connections the pool keeps to this shard.
     * @param connectionTimeout How long taking a connection waits before failing: short, so that an enqueue to a shard
     *                          that is down fails fast.
     */
    public record Shard(String url, String username, String password, @DefaultValue("10") int maximumPoolSize,
                        @DefaultValue("2s") Duration connectionTimeout) {
    }

    /**
     * When a queue's workers vacuum their table themselves.
     *
     * @param claimedTasks Claimed tasks after which the workers vacuum their table; 0 leaves it to autovacuum.
     * @param minInterval  The least time between two of the workers' vacuums.
     */
    public record Vacuum(@DefaultValue("10000") long claimedTasks, @DefaultValue("1s") Duration minInterval) {
    }

    /**
     * A queue's coalescing producer ({@code DbQueues.coalescingProducer(id)}): concurrent single enqueues merged
     * into one statement per batch, each caller answered after its batch commits.
     *
     * @param linger   How long a batch waits for more tasks after its first, as a Kafka producer's linger.ms; at 0
     *                 a batch is written at once when none is being written, and gathers while one is.
     * @param maxBatch The most tasks in one batch; a full batch is written at once.
     */
    public record Coalesce(@DefaultValue("0") Duration linger, @DefaultValue("100") int maxBatch) {
    }

    /**
     * A queue's rate limit: a token bucket in the database that every instance's claims take from.
     *
     * @param perSecond Tasks started per second across all instances; 0: no rate limit.
     * @param burst     How many tasks may start at once after a quiet spell. Unset: one second's worth.
     */
    public record RateLimit(@DefaultValue("0") double perSecond, Integer burst) {

        /** The burst given, or one second's worth of tasks. */
        int bucketSize() {
            return burst != null ? burst : (int) Math.max(1, Math.ceil(perSecond));
        }
    }

    /**
     * A queue's per-key limit: at most max-in-flight tasks with the same value of the header run at once, in every
     * instance together; tasks without the header are not limited by it.
     *
     * @param header      The task header whose value is a task's key, e.g. customer.
     * @param maxInFlight The most tasks of one key being handled at once; 0: no per-key limit.
     */
    public record PerKey(String header, @DefaultValue("0") int maxInFlight) {
    }

    /**
     * Retry policy of a queue: the n-th failure waits interval * 2^(n-1) (geometric), interval * (2n-1)
     * (arithmetic) or interval (linear).
     *
     * @param type        Retry type: geometric, arithmetic or linear.
     * @param interval    Base delay before a failed task is tried again.
     * @param maxAttempts Attempts before a failing task moves to the dead-letter table.
     * @param jitter      Random extra share (0 to 1) of each delay, so that tasks that failed together do not
     *                    retry together.
     * @param maxDelay    The longest delay between two attempts, however many failed before; at least the
     *                    interval. Unset: one day, or the interval when that is longer.
     */
    public record Retry(@DefaultValue("geometric") RetryType type, @DefaultValue("1s") Duration interval,
                        @DefaultValue("10") int maxAttempts, @DefaultValue("0.0") double jitter, Duration maxDelay) {

        RetryPolicy policy() {
            RetryPolicy policy = RetryPolicy.of(type, interval, maxAttempts).withJitter(jitter);
            return maxDelay == null ? policy : policy.withMaxDelay(maxDelay);
        }
    }
}
