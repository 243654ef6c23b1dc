package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.Wakeup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;
import static io.dbqueue.spring.InvalidQueuePropertyException.required;

/**
 * The queues of {@code dbq.queues} and the groups of {@code dbq.groups}, turned into the core's
 * configuration. Every value goes through the core's own validation; a bad one fails with a message
 * naming its property.
 */
public final class QueueDefinitions {

    /** Spring Boot's auto-configured task executor. */
    static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    private final Map<String, QueueDefinition> byId;
    private final Map<String, QueueGroupDefinition> groups;

    public QueueDefinitions(Collection<QueueDefinition> definitions) {
        this(definitions, List.of());
    }

    /** {@code groups} as {@link #of} validated them. */
    QueueDefinitions(Collection<QueueDefinition> definitions, Collection<QueueGroupDefinition> groups) {
        Map<String, QueueDefinition> map = new LinkedHashMap<>();
        Map<QueueLocation, String> locations = new LinkedHashMap<>();
        for (QueueDefinition definition : definitions) {
            if (map.putIfAbsent(definition.id(), definition) != null) {
                throw new IllegalArgumentException("queue id '" + definition.id() + "' is defined twice");
            }
            String other = locations.putIfAbsent(definition.location(), definition.id());
            if (other != null) {
                throw new InvalidQueuePropertyException("dbq.queues." + other + " and dbq.queues." + definition.id()
                        + " both name queue " + definition.location() + "; give one of them another queue-name");
            }
        }
        this.byId = Collections.unmodifiableMap(map);
        Map<String, QueueGroupDefinition> groupMap = new LinkedHashMap<>();
        for (QueueGroupDefinition group : groups) {
            if (map.containsKey(group.id()) || groupMap.putIfAbsent(group.id(), group) != null) {
                throw new InvalidQueuePropertyException("dbq.groups." + group.id()
                        + ": the id is taken by another queue or group; consumers name one or the other");
            }
        }
        this.groups = Collections.unmodifiableMap(groupMap);
    }

    /**
     * Validates {@code properties}; throws {@link InvalidQueuePropertyException} naming the first bad
     * property. Queues that do not say whether their workers run on virtual threads do when
     * {@code virtualThreads} (Spring Boot's spring.threads.virtual.enabled, on JDK 21 or later).
     */
    public static QueueDefinitions of(DbQueueProperties properties, boolean virtualThreads) {
        check("dbq.shutdown-timeout", () -> positive("shutdownTimeout", properties.getShutdownTimeout()));
        check("dbq.notify-interval", () -> notNegative("notifyInterval", properties.getNotifyInterval()));
        Map<String, QueueDefinition> queues = new LinkedHashMap<>();
        properties.getQueues().forEach((id, queue) -> queues.put(id, definition(id, queue, virtualThreads)));
        Map<String, String> groupOfQueue = new LinkedHashMap<>();
        List<QueueGroupDefinition> groups = new ArrayList<>();
        properties.getGroups().forEach((id, group) -> groups.add(group(id, group, queues, groupOfQueue)));
        return new QueueDefinitions(queues.values(), groups);
    }

    /** The groups of {@code dbq.groups}, by id. */
    public Map<String, QueueGroupDefinition> groups() {
        return groups;
    }

    /** The group queue {@code queueId} belongs to, if any. */
    public Optional<QueueGroupDefinition> groupOf(String queueId) {
        return groups.values().stream().filter(g -> g.queueIds().contains(queueId)).findFirst();
    }

    private static QueueGroupDefinition group(String id, DbQueueProperties.Group group,
                                              Map<String, QueueDefinition> queues, Map<String, String> groupOfQueue) {
        String prefix = "dbq.groups." + id + ".";
        List<String> ids = group.getQueues() == null ? List.of() : group.getQueues();
        if (ids.isEmpty()) {
            throw new InvalidQueuePropertyException(prefix + "queues must name at least one queue of dbq.queues");
        }
        List<QueueDefinition> members = new ArrayList<>();
        for (String queueId : ids) {
            QueueDefinition member = queues.get(queueId);
            if (member == null) {
                throw new InvalidQueuePropertyException(prefix + "queues names '" + queueId
                        + "', which is not configured under dbq.queues (configured: " + queues.keySet() + ")");
            }
            String other = groupOfQueue.putIfAbsent(queueId, id);
            if (other != null) {
                throw new InvalidQueuePropertyException(prefix + "queues names '" + queueId + "'" + (other.equals(id)
                        ? " twice" : ", which is in group '" + other + "' already; a queue belongs to one group at most"));
            }
            QueueDefinition first = members.isEmpty() ? member : members.get(0);
            if (!member.location().table().equals(first.location().table())) {
                throw new InvalidQueuePropertyException(prefix + "queues must all be on one table: '" + first.id()
                        + "' is on " + first.location().table().name() + ", '" + queueId + "' on "
                        + member.location().table().name());
            }
            // The group's workers listen as the first queue says; the others' producers notify as they say.
            if (member.config().wakeup() != first.config().wakeup()) {
                throw new InvalidQueuePropertyException(prefix + "queues: '" + queueId + "' has wakeup "
                        + member.config().wakeup().name().toLowerCase(Locale.ROOT) + " and '" + first.id() + "' "
                        + first.config().wakeup().name().toLowerCase(Locale.ROOT) + "; a group's queues wake alike");
            }
            if (member.executor().isPresent()) {
                throw new InvalidQueuePropertyException(prefix + "queues: '" + queueId + "' names an executor; a"
                        + " group's workers handle their batches themselves");
            }
            members.add(member);
        }
        QueueGroup queueGroup = check(prefix + "max-workers-per-queue", () -> new QueueGroup(
                members.get(0).location().table(), members.stream().map(m -> m.location().queueName()).toList(),
                group.getMaxWorkersPerQueue()));
        return new QueueGroupDefinition(id, ids, queueGroup, members.get(0));
    }

    public Set<String> ids() {
        return byId.keySet();
    }

    public Collection<QueueDefinition> all() {
        return byId.values();
    }

    /** The queue with this id; an unknown id throws {@link IllegalArgumentException} naming it. */
    public QueueDefinition get(String id) {
        QueueDefinition definition = byId.get(id);
        if (definition == null) {
            throw new IllegalArgumentException("unknown queue id '" + id + "'; configured under dbq.queues: " + ids());
        }
        return definition;
    }

    private static QueueDefinition definition(String id, DbQueueProperties.Queue queue, boolean virtualThreads) {
        String prefix = "dbq.queues." + id + ".";
        String tableName = queue.getTable();
        if (tableName == null || tableName.isBlank()) {
            throw new InvalidQueuePropertyException(prefix + "table is required");
        }
        Layout layout = check(prefix + "layout", () -> layout(queue.getLayout(), tableName));
        QueueTable table = check(prefix + "table", () -> new QueueTable(tableName, layout));
        String queueName = queue.getQueueName() == null ? id : queue.getQueueName();
        QueueLocation location = check(prefix + "queue-name", () -> table.queue(queueName));

        DeliveryMode mode = required(prefix + "mode", queue.getMode()).deliveryMode();
        PollSettings batch = check(prefix + "batch-size", () -> PollSettings.DEFAULT.withBatchSize(queue.getBatchSize()));
        PollSettings betweenTask = check(prefix + "between-task-timeout", () -> batch.withTimeouts(
                queue.getBetweenTaskTimeout(), batch.noTaskTimeout(), batch.fatalCrashTimeout()));
        PollSettings noTask = check(prefix + "no-task-timeout", () -> betweenTask.withTimeouts(
                betweenTask.betweenTaskTimeout(), queue.getNoTaskTimeout(), betweenTask.fatalCrashTimeout()));
        PollSettings poll = check(prefix + "fatal-crash-timeout", () -> noTask.withTimeouts(
                noTask.betweenTaskTimeout(), noTask.noTaskTimeout(), queue.getFatalCrashTimeout()));
        RetryPolicy retry = retry(prefix + "retry.", queue.getRetry());

        QueueConfig base = QueueConfig.of(location).withMode(mode).withPoll(poll).withRetry(retry);
        QueueConfig threads = check(prefix + "threads", () -> base.withThreads(queue.getThreads()));
        QueueConfig leased = check(prefix + "lease-timeout", () -> threads.withLeaseTimeout(queue.getLeaseTimeout()))
                .withLeaseHeartbeat(queue.isLeaseHeartbeat());
        DbQueueProperties.Vacuum vacuum = queue.getVacuum();
        VacuumPolicy claimed = check(prefix + "vacuum.claimed-tasks",
                () -> new VacuumPolicy(vacuum.getClaimedTasks(), VacuumPolicy.DEFAULT.minInterval()));
        VacuumPolicy vacuumPolicy = check(prefix + "vacuum.min-interval",
                () -> new VacuumPolicy(claimed.claimedTasks(), vacuum.getMinInterval()));
        QueueConfig config = leased.withWakeup(required(prefix + "wakeup", queue.getWakeup()));
        boolean virtual = queue.getVirtualThreads() == null ? virtualThreads : queue.getVirtualThreads();
        return new QueueDefinition(id, config, vacuumPolicy, virtual, externalExecutor(prefix, queue, config),
                coalescing(prefix + "coalesce.", queue.getCoalesce()));
    }

    private static CoalescingProducer.Settings coalescing(String prefix, DbQueueProperties.Coalesce coalesce) {
        CoalescingProducer.Settings linger = check(prefix + "linger",
                () -> new CoalescingProducer.Settings(coalesce.getLinger(), 1));
        return check(prefix + "max-batch", () -> new CoalescingProducer.Settings(linger.linger(), coalesce.getMaxBatch()));
    }

    private static Optional<QueueDefinition.ExternalExecutor> externalExecutor(String prefix, DbQueueProperties.Queue queue,
                                                                               QueueConfig config) {
        String bean = queue.getExecutor() == null || queue.getExecutor().isBlank() ? null : queue.getExecutor().trim();
        if (bean == null && queue.getMode() == QueueMode.EXTERNAL_EXECUTOR) {
            bean = APPLICATION_TASK_EXECUTOR;
        }
        if (bean == null) {
            if (queue.getMaxBatchesInFlight() != null) {
                throw new InvalidQueuePropertyException(prefix + "max-batches-in-flight applies only with an executor: set "
                        + prefix + "executor or " + prefix + "mode=external-executor");
            }
            return Optional.empty();
        }
        if (config.mode() == DeliveryMode.EXACTLY_ONCE) {
            throw new InvalidQueuePropertyException(prefix + "executor cannot be used with mode " + queue.getMode().propertyValue()
                    + ": exactly-once claims, handles and finishes a batch in one transaction on the worker's thread");
        }
        int inFlight = queue.getMaxBatchesInFlight() == null ? config.threads() : queue.getMaxBatchesInFlight();
        if (inFlight < 1) {
            throw new InvalidQueuePropertyException(prefix + "max-batches-in-flight must be at least 1, was " + inFlight);
        }
        return Optional.of(new QueueDefinition.ExternalExecutor(bean, inFlight));
    }

    private static RetryPolicy retry(String prefix, DbQueueProperties.Retry retry) {
        RetryType type = required(prefix + "type", retry.getType());
        RetryPolicy policy = check(prefix + "interval", () -> RetryPolicy.of(type, retry.getInterval(), 1));
        RetryPolicy attempts = check(prefix + "max-attempts",
                () -> RetryPolicy.of(type, policy.interval(), retry.getMaxAttempts()));
        RetryPolicy jittered = check(prefix + "jitter", () -> attempts.withJitter(retry.getJitter()));
        return retry.getMaxDelay() == null ? jittered
                : check(prefix + "max-delay", () -> jittered.withMaxDelay(retry.getMaxDelay()));
    }

    private static Layout layout(QueueLayout preset, String table) {
        if (preset != null) {
            return preset.layout();
        }
        if (Layout.presets().stream().anyMatch(l -> l.name().equals(table))) {
            return Layout.named(table);
        }
        throw new IllegalArgumentException("layout must be given when the table '" + table
                + "' is not named after a preset; known layouts: " + Layout.presets().stream().map(Layout::name).toList());
    }

    private static Duration notNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(field + " must be zero or positive, was " + value);
        }
        return value;
    }

    private static Duration positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }
}
