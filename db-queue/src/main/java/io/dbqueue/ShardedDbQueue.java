package io.dbqueue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.RecordHandler;
import io.dbqueue.log.Topic;
import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Wakeup;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * The front door over a {@link ShardSet}: one {@link DbQueue} per shard (each running what a door
 * runs for its database: its LISTEN connection, maintenance and pause watch), and a {@link Placement}
 * that says which shard holds each queue. Its producers route each enqueue to the queue's shard; its
 * consumers run workers on the shard that holds their queue. A shard that is down stops only what
 * lives on it: enqueues to it throw {@link ShardUnavailableException} naming it, its workers resume
 * by themselves when it returns, and {@link #health} reports each shard. A topic's tables are on every
 * shard and each partition is written on the one it is placed on: {@link #topicProducer} routes by the
 * key's partition, and {@link #consumeTopic} starts a member on every shard holding partitions. Built by
 * {@link DbQueue#builder(ShardSet)}. Thread-safe.
 *
 * <p>A queue moves to another shard in three steps, each a call here (in every process that produces
 * or consumes the queue, each step everywhere before the next): {@link #moveQueue} sends new enqueues
 * to the new shard while the consumers go on draining the old one; {@link #awaitDrained} waits until
 * the old shard holds none of the queue's tasks; {@link #releaseQueue} then stops the consumers on the
 * old shard and starts them on the new one. No task is lost, and none enqueued after the move is
 * handed out before one enqueued before it.
 */
public final class ShardedDbQueue implements AutoCloseable {

    private static final Duration DRAIN_POLL = Duration.ofMillis(100);

    private final ShardSet shards;
    private final Placement placement;
    private final Transactions transactions;
    private final Duration shutdownTimeout;
    private final Map<String, DbQueue> doors;
    private final QueueRoutes routes;
    private final List<ShardedWorkers> consumers = new ArrayList<>(); // guarded by this

    private ShardedDbQueue(Builder builder) {
        this.shards = builder.shards;
        this.placement = builder.placement;
        this.transactions = builder.transactions;
        this.shutdownTimeout = builder.shutdownTimeout;
        Map<String, DbQueue> opened = new LinkedHashMap<>();
        try {
            for (String name : shards.names()) {
                DbQueue.Builder door = DbQueue.builder(shards.dataSource(name)).transactions(transactions)
                        .shutdownTimeout(shutdownTimeout);
                builder.eachShard.accept(name, door);
                opened.put(name, door.build());
            }
        } catch (RuntimeException e) { // the doors already built would keep their maintenance threads
            opened.values().forEach(DbQueue::close);
            throw e;
        }
        this.doors = opened;
        this.routes = new QueueRoutes(shards, placement);
    }

    static Builder builder(ShardSet shards) {
        return new Builder(shards);
    }

    public ShardSet shards() {
        return shards;
    }

    /** The door of shard {@code name}: its admin, its producers that take a connection, its topics. */
    public DbQueue shard(String name) {
        shards.dataSource(name); // names the known shards if unknown
        return doors.get(name);
    }

    /** The shard that new enqueues of {@code queue} go to. */
    public String shardOf(QueueLocation queue) {
        return routes.shardOf(queue);
    }

    /** A producer of {@code queue} that wakes its listening consumers ({@link #producer(QueueLocation, Wakeup)}). */
    public ShardedProducer producer(QueueLocation queue) {
        return producer(queue, Wakeup.NOTIFY);
    }

    /** A producer of {@code queue} routing each enqueue to the queue's shard ({@link ShardedProducer}). */
    public ShardedProducer producer(QueueLocation queue, Wakeup consumers) {
        Map<String, QueueProducer> producers = new LinkedHashMap<>();
        doors.forEach((name, door) -> producers.put(name, door.producer(queue, consumers)));
        return new ShardedProducer(queue, shards, routes, producers, transactions);
    }

    /** Starts workers consuming {@code config}'s queue on the shard that holds it. */
    public synchronized ShardedWorkers consume(QueueConfig config, BatchHandler handler) {
        ShardedWorkers workers = new ShardedWorkers(config, shard -> doors.get(shard).consume(config, handler,
                QueueWorkers.threads(config.location())));
        workers.startOn(routes.consumedShard(config.location()));
        consumers.add(workers);
        return workers;
    }

    /**
     * Creates {@code topic}'s tables on every shard where they are missing; each partition is then written on the
     * shard it is placed on. So a call that failed on a shard can be made again. A shard where the topic exists with
     * other partitions or another segment size fails it, naming the shard: the placement of partitions would differ.
     */
    public void createTopic(Topic topic) {
        for (String name : shards.names()) {
            Topic existing = ShardWrite.on(name, "create topic " + topic.name(),
                    () -> LogSchema.createIfMissing(shards.dataSource(name), topic));
            if (!existing.equals(topic)) {
                throw new IllegalStateException("create topic " + topic.name() + ": shard " + name + " has it with "
                        + existing.partitions() + " partitions and segments of " + existing.segmentSize()
                        + ", not " + topic.partitions() + " and " + topic.segmentSize());
            }
        }
    }

    /**
     * A producer of the topic (created on the shards) routing each message by its key's partition
     * ({@link ShardedTopicProducer}). Each shard's producer is made at the first send there, so that a shard
     * that is down fails only the sends to its partitions.
     */
    public ShardedTopicProducer topicProducer(String topicName) {
        Topic topic = describe(topicName);
        return new ShardedTopicProducer(topic, partitionShards(topic), name -> doors.get(name).topicProducer(topicName),
                new JoinedShards(shards, transactions));
    }

    /**
     * Starts a member of {@code config}'s group on every shard that holds a partition of its topic; the members by
     * shard. All or none: when one cannot start (its shard is down: {@link ShardUnavailableException} naming it),
     * those already started are stopped, so that the call can be made again.
     */
    public Map<String, GroupConsumer> consumeTopic(GroupConfig config, RecordHandler handler) {
        List<String> placed = partitionShards(describe(config.topic()));
        Map<String, GroupConsumer> members = new LinkedHashMap<>();
        try {
            for (String name : shards.names()) {
                if (placed.contains(name)) {
                    members.put(name, ShardWrite.on(name, "consume topic " + config.topic(),
                            () -> doors.get(name).consumeTopic(config, handler)));
                }
            }
        } catch (RuntimeException e) {
            GroupConsumer.shutdownAll(members.values(), shutdownTimeout);
            throw e;
        }
        return members;
    }

    /** The shard of each partition of {@code topic}, by partition. */
    private List<String> partitionShards(Topic topic) {
        List<String> placed = new ArrayList<>();
        for (int p = 0; p < topic.partitions(); p++) {
            placed.add(placement.shardOfPartition(topic.name(), p, shards));
        }
        return placed;
    }

    /** The topic as the first shard that answers describes it. */
    private Topic describe(String topicName) {
        QueueException last = null;
        for (String name : shards.names()) {
            try {
                return ShardWrite.on(name, "describe topic " + topicName,
                        () -> LogSchema.describe(shards.dataSource(name), topicName));
            } catch (ShardUnavailableException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * Step 1 of a move: new enqueues of {@code queue} go to shard {@code to}; this door's consumers go
     * on taking the queue from the shard it was on. Returns once this door's enqueues to the old shard
     * that were in flight have ended, so that none commits there after {@link #awaitDrained} looked.
     * Fails if a move of the queue is not yet released.
     */
    public void moveQueue(QueueLocation queue, String to) {
        shards.dataSource(to);
        routes.move(queue, to);
    }

    /**
     * How many tasks of {@code queue} the shard it is moving from still holds (waiting, leased or scheduled), with
     * this door's enqueues to it still in flight (a move's first step that another thread has not seen end); 0 when
     * not moving.
     */
    public long remainingOnOldShard(QueueLocation queue) {
        String from = routes.draining(queue);
        if (from == null) {
            return 0;
        }
        int inFlight = routes.writing(queue, from);
        QueueMonitor.Stats stats = doors.get(from).queueAdmin(queue).stats();
        return inFlight + stats.waiting() + stats.leased() + stats.scheduled();
    }

    /** Step 2 of a move: waits up to {@code timeout} until the old shard holds no task of {@code queue}; returns whether it does not. */
    public boolean awaitDrained(QueueLocation queue, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (remainingOnOldShard(queue) > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(DRAIN_POLL.toNanos());
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Step 3 of a move: stops this door's consumers of {@code queue} on the old shard and starts them on
     * the new one. Fails, changing nothing, if the old shard still holds tasks of the queue; fails too if
     * tasks reach the old shard while its consumers stop (a process still enqueues there: do step 1
     * everywhere), or if they cannot start on the new one, and then its consumers on the old shard go on and the
     * move stays to be released.
     */
    public synchronized void releaseQueue(QueueLocation queue) {
        String from = routes.draining(queue);
        if (from == null) {
            throw new IllegalStateException("release of " + queue + ": it is not moving");
        }
        long left = remainingOnOldShard(queue);
        if (left > 0) {
            throw new IllegalStateException("release of " + queue + ": shard " + from + " still holds " + left
                    + " of its tasks; awaitDrained first");
        }
        List<ShardedWorkers> ofQueue = consumers.stream().filter(w -> w.config().location().equals(queue)).toList();
        ofQueue.forEach(w -> w.stopOn(from, shutdownTimeout));
        String to = shardOf(queue); // the move's: new enqueues go there already
        try {
            left = remainingOnOldShard(queue);
            if (left > 0) {
                throw new IllegalStateException("release of " + queue + ": " + left + " tasks reached shard " + from
                        + " after it was drained; some process still enqueues there (move it there first)");
            }
            ofQueue.forEach(w -> w.startOn(to));
        } catch (RuntimeException e) {
            for (ShardedWorkers w : ofQueue) { // each back on the old shard; what fails there goes with e
                try {
                    w.stopOn(to, shutdownTimeout);
                    w.startOn(from);
                } catch (RuntimeException back) {
                    e.addSuppressed(back);
                }
            }
            throw e;
        }
        routes.released(queue);
    }

    /**
     * Each shard's health, in the set's order: whether it answers, and whether its wakeups listen. The shards are
     * checked at once, so that the call takes one pool's connection timeout however many shards are down.
     */
    public List<ShardHealth> health() {
        ExecutorService checks = Executors.newFixedThreadPool(shards.size(), DaemonThreads.named("dbq-shard-health"));
        try {
            List<CompletableFuture<ShardHealth>> checked = shards.names().stream()
                    .map(name -> CompletableFuture.supplyAsync(() -> healthOf(name), checks)).toList();
            return checked.stream().map(CompletableFuture::join).toList();
        } finally {
            checks.shutdown();
        }
    }

    private ShardHealth healthOf(String name) {
        boolean listening = doors.get(name).isListening();
        try (Connection c = shards.dataSource(name).getConnection()) {
            boolean valid = c.isValid(5);
            return new ShardHealth(name, valid, listening, valid ? null : "connection not valid");
        } catch (Exception e) {
            return new ShardHealth(name, false, listening, e.getMessage());
        }
    }

    /** Closes every shard's door ({@link DbQueue#close}), the consumers first. */
    @Override
    public void close() {
        List<ShardedWorkers> started;
        synchronized (this) {
            started = List.copyOf(consumers);
        }
        // a caller's interrupt would cut the waits short, as in DbQueue.close: cleared, then set again
        boolean interrupted = Thread.interrupted();
        // every queue's workers at once, so that closing takes one shutdown timeout, not one per queue
        List<QueueWorkers> all = new ArrayList<>();
        for (ShardedWorkers workers : started) {
            all.addAll(workers.stopAll());
        }
        QueueWorkers.shutdownAll(all, shutdownTimeout);
        // the doors at once, so that their topics' members take one shutdown timeout, not one per shard; each closes
        // what it runs quietly, so one never keeps another open, and what one throws is thrown here once all are done
        List<Thread> closing = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        doors.forEach((name, door) -> {
            Thread thread = new Thread(() -> {
                try {
                    door.close();
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "dbq-close-shard-" + name);
            thread.start();
            closing.add(thread);
        });
        for (Thread thread : closing) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true; // the doors finish closing all the same
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            if (first instanceof Error error) {
                throw error;
            }
            throw first instanceof RuntimeException e ? e : new IllegalStateException(first);
        }
    }

    /** How a {@link ShardedDbQueue} is built; every setting but the shards has a default. */
    public static final class Builder {

        private final ShardSet shards;
        private Placement placement = Placement.hashed();
        private Transactions transactions = Transactions.JDBC;
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private BiConsumer<String, DbQueue.Builder> eachShard = (name, door) -> { };

        private Builder(ShardSet shards) {
            this.shards = Objects.requireNonNull(shards, "shards");
        }

        /** Where queues and partitions live; default {@link Placement#hashed()}. */
        public Builder placement(Placement value) {
            Objects.requireNonNull(value, "placement").check(shards);
            this.placement = value;
            return this;
        }

        /**
         * The transactions every shard's producers join (each on its own shard's data source); an
         * enqueue in a transaction on another shard than its queue's fails. Default {@link Transactions#JDBC}.
         */
        public Builder transactions(Transactions value) {
            this.transactions = Objects.requireNonNull(value, "transactions");
            return this;
        }

        /** How long closing, and a move's release, wait for batches in progress; default 30 seconds. */
        public Builder shutdownTimeout(Duration value) {
            Checks.notNegative("shutdownTimeout", value);
            this.shutdownTimeout = value;
            return this;
        }

        /** Configures each shard's door (listener, vacuum, notify interval...) by the shard's name. */
        public Builder eachShard(BiConsumer<String, DbQueue.Builder> value) {
            this.eachShard = Objects.requireNonNull(value, "eachShard");
            return this;
        }

        /** Opens a door per shard. */
        public ShardedDbQueue build() {
            return new ShardedDbQueue(this);
        }
    }
}
