package io.dbqueue.spring;

import io.dbqueue.common.Transactions;
import io.dbqueue.maintenance.QueueVacuum;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueWakeups;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.listener.MethodQueueConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.system.JavaVersion;
import org.springframework.core.task.VirtualThreadTaskExecutor;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts the workers of every {@link QueueConsumer} bean when the application context starts, and
 * stops them gracefully when it stops: claiming stops at once, batches in progress get up to
 * {@code dbq.shutdown-timeout} to finish, then the workers are interrupted (their unanswered tasks
 * are released). Its phase is {@link DbQueueAutoConfiguration#PHASE}: it stops after the web server's
 * graceful shutdown, and the DataSource closes only after all lifecycles have stopped. With
 * {@code dbq.auto-startup=false} it starts only when {@link #start()} is called. Queues
 * with {@code wakeup=notify} or {@code adaptive} share one LISTEN connection that wakes their idle workers. A queue with
 * an {@code executor} hands its batches to that bean; when the executor stops taking them (Spring
 * shuts task executors down as the context closes), the workers handle them themselves.
 */
public final class QueueConsumerWorkers implements DbQueueLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(QueueConsumerWorkers.class);

    private final DataSource dataSource;
    private final QueueDefinitions definitions;
    private final ObjectProvider<QueueConsumer> consumers;
    private final QueueListener listener;
    private final Duration shutdownTimeout;
    private final boolean autoStartup;
    private final BeanFactory beans;
    private final Transactions transactions;
    private final Map<String, QueueWorkers> workers = Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<QueueVacuum> vacuums = Collections.synchronizedList(new ArrayList<>());
    private volatile QueueWakeups wakeups;
    private volatile boolean running;

    /** {@code consumers} are looked up on {@link #start()}, so that a consumer may itself inject {@link DbQueues}. */
    public QueueConsumerWorkers(DataSource dataSource, QueueDefinitions definitions,
                                ObjectProvider<QueueConsumer> consumers, QueueListener listener,
                                Duration shutdownTimeout, boolean autoStartup, BeanFactory beans,
                                Transactions transactions) {
        this.dataSource = dataSource;
        this.definitions = definitions;
        this.consumers = consumers;
        this.listener = listener;
        this.shutdownTimeout = shutdownTimeout;
        this.autoStartup = autoStartup;
        this.beans = beans;
        this.transactions = transactions;
    }

    /** The running workers of queue {@code id}, if a consumer bean consumes it. */
    public Optional<QueueWorkers> workers(String id) {
        QueueWorkers own = workers.get(id);
        return own != null ? Optional.of(own)
                : definitions.groupOf(id).map(group -> workers.get(group.id()));
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        List<QueueConsumer> all = consumers.orderedStream().toList();
        checkConsumers(all);
        // Resolved before any worker starts, so that a wrong bean name fails start-up with nothing running.
        Map<String, Executor> executors = new LinkedHashMap<>();
        for (QueueConsumer consumer : all) {
            if (!definitions.groups().containsKey(consumer.queueId())) {
                definitions.get(consumer.queueId()).executor().ifPresent(e ->
                        executors.put(consumer.queueId(), executorBean(consumer.queueId(), e.beanName())));
            }
        }
        running = true;
        try {
            startAll(all, executors);
        } catch (RuntimeException e) {
            stop(); // what did start stops, so that a later start() begins from nothing
            throw e;
        }
    }

    private void startAll(List<QueueConsumer> all, Map<String, Executor> executors) {
        List<QueueWorkers> notified = new ArrayList<>();
        for (QueueConsumer consumer : all) {
            String id = consumer.queueId();
            QueueGroupDefinition group = definitions.groups().get(id);
            QueueDefinition definition = group != null ? group.workers() : definitions.get(id);
            QueueConfig config = consumer.configure(definition.config());
            QueueListener listening = withVacuum(definition, config);
            QueueWorkers started = group != null ? startGroup(consumer, group, config, listening)
                    : startQueue(consumer, definition, config, executors.get(id), listening);
            workers.put(id, started);
            if (definition.notifyWakeups()) {
                notified.add(started);
            }
        }
        if (!notified.isEmpty()) {
            wakeups = QueueWakeups.start(dataSource, notified);
        }
    }

    /** The listener, and the vacuum of the queue's table per the definition's policy. */
    private QueueListener withVacuum(QueueDefinition definition, QueueConfig config) {
        if (!definition.vacuum().enabled()) {
            return listener;
        }
        QueueVacuum vacuum = new QueueVacuum(dataSource, config.location().table(), definition.vacuum());
        vacuums.add(vacuum);
        return QueueListener.composite(List.of(vacuum, listener));
    }

    private QueueWorkers startQueue(QueueConsumer consumer, QueueDefinition definition, QueueConfig config,
                                    Executor executor, QueueListener listener) {
        ThreadFactory threads = threadFactory(definition.id(), definition);
        QueueWorkers started = executor == null
                ? QueueWorkers.start(dataSource, config, consumer, listener, threads, transactions)
                : QueueWorkers.startWithExecutor(dataSource, config, consumer, listener, threads, executor,
                        definition.executor().orElseThrow().maxBatchesInFlight());
        LOG.info("dbq: consuming {} with {} ({} threads, batch {}, {}, wakeup by {}{})", definition.location(),
                describe(consumer), config.threads(), config.poll().batchSize(), config.mode(),
                config.wakeup().name().toLowerCase(Locale.ROOT),
                definition.executor().map(e -> ", handled on " + e.beanName() + " with up to "
                        + e.maxBatchesInFlight() + " batches in flight").orElse(""));
        return started;
    }

    private QueueWorkers startGroup(QueueConsumer consumer, QueueGroupDefinition group, QueueConfig config,
                                    QueueListener listener) {
        QueueWorkers started = QueueWorkers.startGroup(dataSource, config, group.group(), consumer, listener,
                threadFactory(group.id(), group.workers()), transactions);
        LOG.info("dbq: consuming group {} ({}) with {} ({} threads, at most {} per queue, batch {}, {})",
                group.id(), group.queueIds(), describe(consumer), config.threads(),
                group.group().maxWorkersPerQueue(), config.poll().batchSize(), config.mode());
        return started;
    }

    @Override
    public synchronized void stop() {
        running = false;
        QueueWakeups listening = wakeups;
        if (listening != null) {
            listening.close();
            wakeups = null;
        }
        List<QueueWorkers> stopping;
        synchronized (workers) {
            stopping = new ArrayList<>(workers.values());
            workers.clear();
        }
        // Pause all first so that every queue stops claiming at once and shares one deadline.
        stopping.forEach(QueueWorkers::pause);
        long deadline = System.nanoTime() + shutdownTimeout.toNanos();
        for (QueueWorkers queue : stopping) {
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (!queue.shutdown(left)) {
                LOG.warn("dbq: {} did not finish its batches within {}; unanswered tasks were released",
                        queue.config().location(), shutdownTimeout);
            }
        }
        synchronized (vacuums) {
            vacuums.forEach(QueueVacuum::close);
            vacuums.clear();
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

    /** A consumer bean by its class; a {@code @DbQueueListener} method by its name. */
    private static String describe(QueueConsumer consumer) {
        return consumer instanceof MethodQueueConsumer ? consumer.toString() : consumer.getClass().getName();
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
        QueueLocation location = definition.location();
        String prefix = "dbq-" + id + "-";
        if (definition.virtualThreads()) {
            if (JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE)) {
                return new VirtualThreadTaskExecutor(prefix).getVirtualThreadFactory();
            }
            LOG.warn("dbq.queues.{}.virtual-threads=true needs JDK 21 or later; {} runs on platform threads",
                    definition.id(), location);
        }
        AtomicInteger n = new AtomicInteger();
        return task -> new Thread(task, prefix + n.incrementAndGet());
    }
}
