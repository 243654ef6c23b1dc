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
import io.dbqueue.queue.RetryPolicy;
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
     * Maps {@code properties} to the core's configuration; throws {@link InvalidQueuePropertyException} naming the
     * first bad property. Queues that do not say whether their workers run on virtual threads do when
     * {@code virtualThreads} (Spring Boot's spring.threads.virtual.enabled, on JDK 21 or later).
     */
    public static QueueDefinitions of(DbQueueProperties properties, boolean virtualThreads) {
        atLeast("dbq.shutdown-timeout", properties.shutdownTimeout(), Duration.ofNanos(1), "positive");
        atLeast("dbq.notify-interval", properties.notifyInterval(), Duration.ZERO, "zero or positive");
        Map<String, QueueDefinition> queues = new LinkedHashMap<>();
        properties.queues().forEach((id, queue) -> queues.put(id, definition(id, queue, virtualThreads)));
        Map<String, String> groupOfQueue = new LinkedHashMap<>();
        List<QueueGroupDefinition> groups = new ArrayList<>();
        properties.groups().forEach((id, group) -> groups.add(group(id, group, queues, groupOfQueue)));
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
        List<String> ids = group.queues();
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
        QueueGroup queueGroup = check("dbq.groups." + id, () -> new QueueGroup(members.get(0).location().table(),
                members.stream().map(m -> m.location().queueName()).toList(), group.maxWorkersPerQueue()));
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
        String prefix = "dbq.queues." + id;
        if (queue.table() == null || queue.table().isBlank()) {
            throw new InvalidQueuePropertyException(prefix + ".table is required");
        }
        QueueLocation location = check(prefix, () -> new QueueTable(queue.table(), layout(prefix, queue))
                .queue(queue.queueName() == null ? id : queue.queueName()));
        RetryPolicy retry = check(prefix + ".retry", () -> queue.retry().policy());
        QueueConfig config = check(prefix, () -> new QueueConfig(location, queue.mode().deliveryMode(),
                queue.threads(), new PollSettings(queue.batchSize(), queue.betweenTaskTimeout(),
                queue.noTaskTimeout(), queue.fatalCrashTimeout()), retry, queue.leaseTimeout(),
                queue.leaseHeartbeat(), queue.wakeup()));
        DbQueueProperties.Vacuum vacuum = queue.vacuum();
        VacuumPolicy vacuumPolicy = check(prefix + ".vacuum", () -> new VacuumPolicy(vacuum.claimedTasks(),
                vacuum.minInterval()));
        DbQueueProperties.Coalesce coalesce = queue.coalesce();
        CoalescingProducer.Settings coalescing = check(prefix + ".coalesce",
                () -> new CoalescingProducer.Settings(coalesce.linger(), coalesce.maxBatch()));
        boolean virtual = queue.virtualThreads() == null ? virtualThreads : queue.virtualThreads();
        return new QueueDefinition(id, config, vacuumPolicy, virtual, externalExecutor(prefix + ".", queue, config),
                coalescing);
    }

    private static Optional<QueueDefinition.ExternalExecutor> externalExecutor(String prefix, DbQueueProperties.Queue queue,
                                                                               QueueConfig config) {
        String bean = queue.executor() == null || queue.executor().isBlank() ? null : queue.executor().trim();
        if (bean == null && queue.mode() == QueueMode.EXTERNAL_EXECUTOR) {
            bean = APPLICATION_TASK_EXECUTOR;
        }
        if (bean == null) {
            if (queue.maxBatchesInFlight() != null) {
                throw new InvalidQueuePropertyException(prefix + "max-batches-in-flight applies only with an executor: set "
                        + prefix + "executor or " + prefix + "mode=external-executor");
            }
            return Optional.empty();
        }
        if (config.mode() == DeliveryMode.EXACTLY_ONCE) {
            throw new InvalidQueuePropertyException(prefix + "executor cannot be used with mode " + queue.mode().propertyValue()
                    + ": exactly-once claims, handles and finishes a batch in one transaction on the worker's thread");
        }
        int inFlight = queue.maxBatchesInFlight() == null ? config.threads() : queue.maxBatchesInFlight();
        if (inFlight < 1) {
            throw new InvalidQueuePropertyException(prefix + "max-batches-in-flight must be at least 1, was " + inFlight);
        }
        return Optional.of(new QueueDefinition.ExternalExecutor(bean, inFlight));
    }

    private static Layout layout(String prefix, DbQueueProperties.Queue queue) {
        if (queue.layout() != null) {
            return queue.layout().layout();
        }
        return Layout.presets().stream().filter(l -> l.name().equals(queue.table())).findFirst().orElseThrow(() ->
                new InvalidQueuePropertyException(prefix + ".layout must be given when the table '" + queue.table()
                        + "' is not named after a preset; known layouts: "
                        + Layout.presets().stream().map(Layout::name).toList()));
    }

    private static void atLeast(String property, Duration value, Duration least, String rule) {
        if (value.compareTo(least) < 0) {
            throw new InvalidQueuePropertyException(property + " must be " + rule + ", was " + value);
        }
    }
}
