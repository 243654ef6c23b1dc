package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueWorkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.system.JavaVersion;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Runs the workers of every {@link QueueConsumer} bean through the {@link DbQueue} that holds its queue, as its queue's (or group's)
 * properties say. Stopping pauses every queue at once, gives the batches in progress up to
 * {@code dbq.shutdown-timeout} between them, then interrupts the workers (their unanswered tasks are released). A
 * queue with an {@code executor} hands its batches to that bean; once it stops taking them, the workers handle them.
 */
public final class QueueConsumerWorkers extends DbQueueLifecycle implements SmartInitializingSingleton {

    private static final Logger LOG = LoggerFactory.getLogger(QueueConsumerWorkers.class);

    private final QueueDoors doors;
    private final DbQueueProperties properties;
    private final ObjectProvider<QueueConsumer> consumers;
    private final BeanFactory beans;
    private final boolean virtualThreads;
    private final List<QueueConsumerDecorator> decorators;
    private final Map<String, QueueWorkers> workers = new ConcurrentHashMap<>();

    /**
     * {@code consumers} are looked up on start, so that a consumer may itself inject {@link DbQueues};
     * {@code virtualThreads}: whether queues that do not say run on virtual threads.
     */
    public QueueConsumerWorkers(DbQueue door, DbQueueProperties properties, ObjectProvider<QueueConsumer> consumers,
                                BeanFactory beans, boolean virtualThreads) {
        this(door, properties, consumers, beans, virtualThreads, List.of());
    }

    /** As the other constructor, each consumer's handler wrapped by {@code decorators} in their order (the first outermost). */
    public QueueConsumerWorkers(DbQueue door, DbQueueProperties properties, ObjectProvider<QueueConsumer> consumers,
                                BeanFactory beans, boolean virtualThreads, List<QueueConsumerDecorator> decorators) {
        this(queue -> door, properties, consumers, beans, virtualThreads, decorators);
    }

    /** As the other constructors, each queue consumed through the door {@code doors} gives for it (its shard's). */
    public QueueConsumerWorkers(QueueDoors doors, DbQueueProperties properties, ObjectProvider<QueueConsumer> consumers,
                                BeanFactory beans, boolean virtualThreads, List<QueueConsumerDecorator> decorators) {
        super(properties.autoStartup(), DbQueueAutoConfiguration.PHASE);
        this.doors = doors;
        this.properties = properties;
        this.consumers = consumers;
        this.beans = beans;
        this.virtualThreads = virtualThreads;
        this.decorators = List.copyOf(decorators);
    }

    /** The running workers of queue or group {@code id} (a queue's group's when it is in one), if a consumer runs. */
    public Optional<QueueWorkers> workers(String id) {
        return Optional.ofNullable(workers.get(id)).or(() -> properties.groups().entrySet().stream()
                .filter(group -> group.getValue().queues().contains(id)).findFirst()
                .map(group -> workers.get(group.getKey())));
    }

    /**
     * Checks the consumers once every bean exists, so that a consumer of a queue that is not configured, a second
     * consumer of one queue, or an executor that is not a bean fails the context's start even with
     * {@code dbq.auto-startup=false}, not only when the workers are started.
     */
    @Override
    public void afterSingletonsInstantiated() {
        Map<String, QueueConfig> configs = properties.configs();
        check(consumers.orderedStream().toList(), configs, properties.queueGroups(configs));
    }

    @Override
    protected void doStart() {
        Map<String, QueueConfig> configs = properties.configs();
        Map<String, QueueGroup> groups = properties.queueGroups(configs);
        // checked once every bean existed (afterSingletonsInstantiated)
        consumers.orderedStream().forEach(consumer -> workers.put(consumer.queueId(), start(consumer, configs, groups)));
    }

    private QueueWorkers start(QueueConsumer consumer, Map<String, QueueConfig> configs, Map<String, QueueGroup> groups) {
        String id = consumer.queueId();
        QueueGroup group = groups.get(id);
        List<String> queueIds = group == null ? List.of(id) : properties.groups().get(id).queues();
        DbQueueProperties.Queue queue = properties.queues().get(queueIds.get(0)); // a group's runs as its first says
        QueueConfig config = consumer.configure(configs.get(queueIds.get(0)));
        String executor = queue.executorBean();
        LOG.info("dbq: consuming {} {} with {} ({} threads, batch {}, {}, wakeup by {}{})",
                group == null ? id : "group " + id + " " + queueIds, config.location(), describe(consumer),
                config.threads(), config.poll().batchSize(), config.mode(), config.wakeup(), executor == null ? ""
                        : ", handled on " + executor + " with up to " + queue.batchesInFlight() + " batches in flight");
        ThreadFactory threads = threads(id, queue);
        BatchHandler handler = consumer;
        for (int i = decorators.size() - 1; i >= 0; i--) {
            handler = decorators.get(i).decorate(config, handler);
        }
        DbQueue door = doors.door(config.location()); // a group's queues are on one shard (ShardPlacement checks)
        if (group != null) {
            return door.consumeGroup(config, group, handler, threads);
        }
        return executor == null ? door.consume(config, handler, threads)
                : door.consumeWithExecutor(config, handler, threads, executor(id, executor), queue.batchesInFlight());
    }

    @Override
    protected void doStop() {
        List<QueueWorkers> stopping = new ArrayList<>(workers.values());
        workers.clear();
        QueueWorkers.shutdownAll(stopping, properties.shutdownTimeout());
    }

    /** A consumer by its own toString() if it has one (a {@code @DbQueueListener} method's names it), else by its class. */
    private static String describe(QueueConsumer consumer) {
        String described = consumer.toString();
        return described.startsWith(consumer.getClass().getName() + "@") ? consumer.getClass().getName() : described;
    }

    private void check(List<QueueConsumer> all, Map<String, QueueConfig> configs, Map<String, QueueGroup> groups) {
        Map<String, QueueConsumer> byQueue = new HashMap<>();
        for (QueueConsumer consumer : all) {
            String id = consumer.queueId();
            if (!configs.containsKey(id) && !groups.containsKey(id)) {
                Set<String> configured = new LinkedHashSet<>(configs.keySet());
                configured.addAll(groups.keySet());
                throw new UnknownQueueIdException("consumer " + describe(consumer) + " names queue id '" + id
                        + "', which is not configured: add dbq.queues." + id + ".table (configured ids: "
                        + configs.keySet() + (groups.isEmpty() ? "" : ", groups: " + groups.keySet()) + ")",
                        id, configured);
            }
            QueueConsumer other = byQueue.putIfAbsent(id, consumer);
            if (other != null) {
                String threads = groups.containsKey(id) ? properties.groups().get(id).queues().get(0) : id;
                throw new InvalidConsumerException("queue id '" + id + "' has two consumers, " + describe(other) + " and "
                        + describe(consumer) + "; raise dbq.queues." + threads
                        + ".threads instead, or give each consumer its own queue");
            }
        }
        properties.groups().forEach((group, members) -> members.queues().stream()
                .filter(member -> byQueue.containsKey(group) && byQueue.containsKey(member)).findFirst()
                .ifPresent(member -> {
                    throw new InvalidConsumerException("queue id '" + member + "' has a consumer of its own, "
                            + describe(byQueue.get(member)) + ", and is consumed by group '" + group + "', "
                            + describe(byQueue.get(group)) + "; take it out of dbq.groups." + group
                            + ".queues or drop one consumer");
                }));
        byQueue.forEach((id, consumer) -> {
            List<String> queueIds = groups.containsKey(id) ? properties.groups().get(id).queues() : List.of(id);
            QueueConfig config = consumer.configure(configs.get(queueIds.get(0))); // an annotation's values, checked now
            String executor = properties.queues().containsKey(id) ? properties.queues().get(id).executorBean() : null;
            if (executor != null) {
                executor(id, executor);
                if (config.mode() == DeliveryMode.EXACTLY_ONCE) {
                    throw new InvalidConsumerException(describe(consumer) + " consumes queue id '" + id + "' exactly"
                            + " once, which dbq.queues." + id + ".executor cannot: its claim, handler and finish are"
                            + " one transaction on the worker's connection");
                }
            }
        });
    }

    private Executor executor(String id, String name) {
        try {
            return beans.getBean(name, Executor.class);
        } catch (BeansException e) { // not chained: Spring's analyzer of a missing bean would not name the property
            throw new InvalidQueuePropertyException("dbq.queues." + id + ".executor names '" + name
                    + "', which is not an Executor bean of this application: " + e.getMessage());
        }
    }

    /** Threads named after the queue or group {@code id}, virtual as {@code queue} (or spring.threads.virtual) says. */
    private ThreadFactory threads(String id, DbQueueProperties.Queue queue) {
        String prefix = "dbq-" + id + "-";
        if (queue.virtualThreads() == null ? virtualThreads : queue.virtualThreads()) {
            if (JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE)) {
                return new VirtualThreadTaskExecutor(prefix).getVirtualThreadFactory();
            }
            LOG.warn("dbq: virtual threads need JDK 21 or later; {} runs on platform threads", id);
        }
        return new CustomizableThreadFactory(prefix);
    }
}
