package io.dbqueue;

import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueWorkers;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The workers a {@link ShardedDbQueue} started for one queue: one {@link QueueWorkers} on each shard
 * that holds the queue. A shard that is down stops only its own workers' claims; they go on by
 * themselves when it returns. A queue move starts and stops the workers of a shard here. Thread-safe.
 */
public final class ShardedWorkers {

    private final QueueConfig config;
    private final Function<String, QueueWorkers> starter;
    private final Map<String, QueueWorkers> byShard = new LinkedHashMap<>(); // guarded by this
    private boolean stopped; // guarded by this

    ShardedWorkers(QueueConfig config, Function<String, QueueWorkers> starter) {
        this.config = config;
        this.starter = starter;
    }

    public QueueConfig config() {
        return config;
    }

    /** The workers on each shard, by shard name. */
    public synchronized Map<String, QueueWorkers> byShard() {
        return Map.copyOf(byShard);
    }

    public synchronized boolean isRunning() {
        return !stopped && byShard.values().stream().anyMatch(QueueWorkers::isRunning);
    }

    /** Stops the workers on every shard, giving batches in progress up to {@code timeout} between them. */
    public boolean shutdown(Duration timeout) {
        Collection<QueueWorkers> running = stopAll();
        QueueWorkers.shutdownAll(running, timeout);
        return running.stream().noneMatch(QueueWorkers::isRunning);
    }

    /** Marks these workers stopped and returns those running on every shard, for the caller to shut down. */
    synchronized Collection<QueueWorkers> stopAll() {
        stopped = true;
        return List.copyOf(byShard.values());
    }

    /** Starts workers on {@code shard} unless there are some already. */
    synchronized void startOn(String shard) {
        if (!stopped && !byShard.containsKey(shard)) {
            byShard.put(shard, starter.apply(shard));
        }
    }

    /** Stops the workers on {@code shard}, if any. */
    void stopOn(String shard, Duration timeout) {
        QueueWorkers workers;
        synchronized (this) {
            workers = byShard.remove(shard);
        }
        if (workers != null) {
            workers.shutdown(timeout);
        }
    }
}
