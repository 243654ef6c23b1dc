package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueWorkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.system.JavaVersion;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * Starts the workers of every {@link QueueConsumer} bean through the {@link DbQueue} when the application context
 * starts, and stops them gracefully when it stops: every queue stops claiming at once, batches in progress get up
 * to {@code dbq.shutdown-timeout} to finish, then the workers are interrupted (their unanswered tasks are
 * released). Its phase is {@link DbQueueAutoConfiguration#PHASE}: it stops after the web server's graceful
 * shutdown. With {@code dbq.auto-startup=false} it starts only when {@link #start()} is called. A queue with an
 * {@code executor} hands its batches to that bean; when the executor stops taking them (Spring shuts task executors
 * down as the context closes), the workers handle them themselves.
 */
public final class QueueConsumerWorkers implements DbQueueLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(QueueConsumerWorkers.class);

    private final DbQueue door;
    private final QueueDefinitions definitions;
    private final ObjectProvider<QueueConsumer> consumers;
    private final Duration shutdownTimeout;
    private final boolean autoStartup;
    private final BeanFactory beans;
    private final Map<String, QueueWorkers> workers = Collections.synchronizedMap(new LinkedHashMap<>());
    private volatile boolean running;

    /** {@code consumers} are looked up on {@link #start()}, so that a consumer may itself inject {@link DbQueues}. */
    public QueueConsumerWorkers(DbQueue door, QueueDefinitions definitions, ObjectProvider<QueueConsumer> consumers,
                                Duration shutdownTimeout, boolean autoStartup, BeanFactory beans) {
        this.door = door;
        this.definitions = definitions;
        this.consumers = consumers;
        this.shutdownTimeout = shutdownTimeout;
        this.autoStartup = autoStartup;
        this.beans = beans;
    }

    /** The running workers of queue {@code id}, if a consumer bean consumes it. */
    public Optional<QueueWorkers> workers(String id) {
        QueueWorkers own = workers.get(id);
        return own != null ? Optional.of(own) : definitions.groupOf(id).map(group -> workers.get(group.id()));
    }

    /** Prepares every consumer (its configuration, its executor bean) before any worker starts. */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        List<QueueConsumer> all = consumers.orderedStream().toList();
        checkConsumers(all);
        Map<String, Supplier<QueueWorkers>> starts = new LinkedHashMap<>();
        for (QueueConsumer consumer : all) {
            starts.put(consumer.queueId(), prepare(consumer));
        }
        running = true;
        try {
            starts.forEach((id, start) -> workers.put(id, start.get()));
        } catch (RuntimeException e) {
            stop(); // what did start stops, so that a later start() begins from nothing
            throw e;
        }
    }

    private Supplier<QueueWorkers> prepare(QueueConsumer consumer) {
        String id = consumer.queueId();
        QueueGroupDefinition group = definitions.groups().get(id);
        QueueDefinition definition = group != null ? group.workers() : definitions.get(id);
        QueueConfig config = consumer.configure(definition.config());
        ThreadFactory threads = threadFactory(id, definition);
        String on = definition.executor().map(e -> ", handled on " + e.beanName() + " with up to "
                + e.maxBatchesInFlight() + " batches in flight").orElse("");
        Optional<Executor> executor = definition.executor().map(e -> executorBean(id, e.beanName()));
        return () -> {
            LOG.info("dbq: consuming {} {} with {} ({} threads, batch {}, {}, wakeup by {}{})", group != null
                    ? "group " + id + " " + group.queueIds() : id, config.location(), describe(consumer),
                    config.threads(), config.poll().batchSize(), config.mode(), config.wakeup(), on);
            return group != null ? door.consumeGroup(config, group.group(), consumer, threads)
                    : executor.map(e -> door.consumeWithExecutor(config, consumer, threads, e,
                    definition.executor().orElseThrow().maxBatchesInFlight()))
                    .orElseGet(() -> door.consume(config, consumer, threads));
        };
    }

    @Override
    public synchronized void stop() {
        running = false;
        List<QueueWorkers> stopping;
        synchronized (workers) {
            stopping = new ArrayList<>(workers.values());
            workers.clear();
        }
        // Pause all first so that every queue stops claiming at once and shares one deadline.
        stopping.forEach(QueueWorkers::pause);
        long deadline = System.nanoTime() + shutdownTimeout.toNanos();
        for (QueueWorkers queue : stopping) {
            if (!queue.shutdown(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                LOG.warn("dbq: {} did not finish its batches within {}; unanswered tasks were released",
                        queue.config().location(), shutdownTimeout);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    /** A consumer by its own toString() if it has one (a {@code @DbQueueListener} method's names it), else by its class. */
    private static String describe(QueueConsumer consumer) {
        String described = consumer.toString();
        return described.startsWith(consumer.getClass().getName() + "@") ? consumer.getClass().getName() : described;
    }

    private void checkConsumers(List<QueueConsumer> all) {
        Map<String, QueueConsumer> byQueue = new LinkedHashMap<>();
        for (QueueConsumer consumer : all) {
            String id = consumer.queueId();
            if (id == null || !definitions.ids().contains(id) && !definitions.groups().containsKey(id)) {
                String groups = definitions.groups().isEmpty() ? "" : ", groups: " + definitions.groups().keySet();
                throw new IllegalStateException("consumer " + describe(consumer)
                        + " names queue id '" + id + "', which is not configured: add dbq.queues." + id
                        + ".table (configured ids: " + definitions.ids() + groups + ")");
            }
            QueueConsumer other = byQueue.putIfAbsent(id, consumer);
            if (other != null) {
                String threads = definitions.groups().containsKey(id)
                        ? definitions.groups().get(id).workers().id() : id;
                throw new IllegalStateException("queue id '" + id + "' has two consumers, " + describe(other)
                        + " and " + describe(consumer) + "; raise dbq.queues." + threads
                        + ".threads instead, or give each consumer its own queue");
            }
        }
        for (QueueGroupDefinition group : definitions.groups().values()) {
            for (String member : group.queueIds()) {
                if (byQueue.containsKey(group.id()) && byQueue.containsKey(member)) {
                    throw new IllegalStateException("queue id '" + member + "' has a consumer of its own, "
                            + describe(byQueue.get(member)) + ", and is consumed by group '" + group.id() + "', "
                            + describe(byQueue.get(group.id())) + "; take it out of dbq.groups." + group.id()
                            + ".queues or drop one consumer");
                }
            }
        }
    }

    private Executor executorBean(String id, String name) {
        try {
            return beans.getBean(name, Executor.class);
        } catch (BeansException e) {
            throw new IllegalStateException("dbq.queues." + id + ".executor names '" + name
                    + "', which is not an Executor bean of this application: " + e.getMessage(), e);
        }
    }

    /** Threads named after the queue or group {@code id}, virtual as {@code definition} says. */
    private static ThreadFactory threadFactory(String id, QueueDefinition definition) {
        String prefix = "dbq-" + id + "-";
        if (definition.virtualThreads()) {
            if (JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE)) {
                return new VirtualThreadTaskExecutor(prefix).getVirtualThreadFactory();
            }
            LOG.warn("dbq.queues.{}.virtual-threads=true needs JDK 21 or later; {} runs on platform threads",
                    definition.id(), definition.location());
        }
        return new CustomizableThreadFactory(prefix);
    }
}
