package io.dbqueue.spring.health;

import io.dbqueue.common.Cached;
import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.DbQueueShards;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.health.DbQueueHealthProperties.Thresholds;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Health {@code dbQueue}: UP when the database answers, every queue's depth and dead letters can be read and are
 * within the {@code dbq.health.*} thresholds, and every consumed queue's workers are running; DOWN otherwise. Details
 * per queue id: depth, age of the oldest due task, dead letters, the state of its workers and the thresholds it passed.
 * A check answers within {@link Cached#TIMEOUT}: while the database does not answer, health says DOWN within that
 * rather than wait for it (the check goes on in the background, and the next one may take its result). The figures
 * are {@link DbQueues}', read at most once per few seconds; whether the database answers is asked anew on each check.
 *
 * <p>With shards ({@link DbQueueShards}) each shard is a database of its own: detail {@code shards} says of each
 * whether it answers (within {@link #SHARD_TIMEOUT}), whether its wakeups listen, and the problem; a queue names its
 * shard, and a queue on a shard that does not answer has that as its error. A shard that does not answer is DOWN as
 * the one database would be; the queues on the other shards are read as usual.
 */
public final class DbQueueHealthIndicator extends AbstractHealthIndicator {

    /** How long a check waits for each shard to answer, so that one shard down leaves time for the others. */
    static final Duration SHARD_TIMEOUT = Duration.ofMillis(400);

    private final DbQueues queues;
    private final DbQueueHealthProperties properties;
    private final Cached<Boolean> reachable; // the one database's, or null with shards
    private final DbQueueShards shards; // or null
    private final Map<String, Cached<Boolean>> shardReachable = new LinkedHashMap<>();
    private final Cached<Health> check = new Cached<>(this::check, Duration.ZERO, Cached.TIMEOUT);

    public DbQueueHealthIndicator(DbQueues queues, DataSource dataSource, DbQueueHealthProperties properties) {
        this(queues, properties, null, new Cached<>(() -> ping(dataSource), Duration.ZERO, Cached.TIMEOUT));
    }

    /** Over the shards of {@code shards}, each checked on its own. */
    public DbQueueHealthIndicator(DbQueues queues, DbQueueShards shards, DbQueueHealthProperties properties) {
        this(queues, properties, shards, null);
        shards.names().forEach(name -> shardReachable.put(name,
                new Cached<>(() -> ping(shards.dataSource(name)), Duration.ZERO, SHARD_TIMEOUT)));
    }

    private DbQueueHealthIndicator(DbQueues queues, DbQueueHealthProperties properties, DbQueueShards shards,
                                   Cached<Boolean> reachable) {
        super("db-queue health check failed");
        properties.check(queues.ids());
        this.queues = queues;
        this.properties = properties;
        this.shards = shards;
        this.reachable = reachable;
    }

    private static boolean ping(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            if (!c.isValid((int) Math.max(1, Cached.TIMEOUT.toSeconds()))) {
                throw new IllegalStateException("the database connection is not valid");
            }
            return true;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try {
            Health health = check.get();
            builder.status(health.getStatus()).withDetails(health.getDetails());
        } catch (Cached.ReadTimeoutException e) {
            builder.down().withDetail("error", e.getMessage());
        }
    }

    /** The health, each reading it takes bounded on its own. */
    private Health check() {
        Health.Builder builder = Health.unknown();
        Map<String, String> unreachable = new HashMap<>(); // by shard name, the one database's by ""
        if (shards == null) {
            try {
                reachable.get();
            } catch (RuntimeException e) {
                unreachable.put("", e.getMessage());
                builder.withDetail("error", "database unreachable: " + e.getMessage());
            }
        } else {
            builder.withDetail("shards", shardDetails(unreachable));
        }
        boolean up = unreachable.isEmpty();
        for (String id : queues.ids()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("location", queues.location(id).toString());
            String shard = shards == null ? "" : shards.shardOf(id);
            if (shards != null) {
                details.put("shard", shard);
            }
            if (!unreachable.containsKey(shard)) {
                up &= figures(id, details);
            } else if (shards != null) {
                details.put("error", "shard " + shard + " unreachable: " + unreachable.get(shard));
            }
            Optional<QueueWorkers> workers = queues.workers(id);
            details.put("workers", workers.map(w -> !w.isRunning() ? "stopped" : w.isPaused() ? "paused" : "running")
                    .orElse("none"));
            if (workers.isPresent()) {
                details.put("busyWorkers", workers.get().busyWorkers());
                up &= workers.get().isRunning();
            }
            builder.withDetail(id, details);
        }
        return builder.status(up ? "UP" : "DOWN").build();
    }

    /** Each shard's health by name; puts the problem of each that does not answer in {@code unreachable}. */
    private Map<String, Object> shardDetails(Map<String, String> unreachable) {
        // all at once: one after another, a few unreachable shards would outlast the whole check's second
        Map<String, CompletableFuture<Boolean>> pings = new LinkedHashMap<>();
        shardReachable.forEach((name, ping) -> pings.put(name, ping.fetch()));
        long deadline = System.nanoTime() + SHARD_TIMEOUT.toNanos();
        Map<String, Object> all = new LinkedHashMap<>();
        shardReachable.forEach((name, ping) -> {
            Map<String, Object> shard = new LinkedHashMap<>();
            try {
                ping.await(pings.get(name), deadline);
                shard.put("up", true);
            } catch (RuntimeException e) {
                unreachable.put(name, e.getMessage());
                shard.put("up", false);
            }
            shard.put("listening", shards.shard(name).isListening());
            if (unreachable.containsKey(name)) {
                shard.put("problem", unreachable.get(name));
            }
            all.put(name, shard);
        });
        return all;
    }

    /**
     * Says that the oldest due task, {@code age} old, is older than {@code limit}: in whole seconds, or in
     * milliseconds' precision where the limit has a part of a second (a limit of 500 ms read "0 s").
     */
    static String olderThan(Duration age, Duration limit) {
        int scale = limit.toMillis() % 1000 == 0 ? 0 : 3;
        return "oldest due task " + seconds(age, scale) + " s old, older than max-oldest-age " + seconds(limit, scale)
                + " s";
    }

    private static String seconds(Duration duration, int scale) {
        return BigDecimal.valueOf(duration.toMillis(), 3).setScale(scale, RoundingMode.DOWN).stripTrailingZeros()
                .toPlainString();
    }

    /** Puts queue {@code id}'s figures in {@code details}; whether they are readable and within its thresholds. */
    private boolean figures(String id, Map<String, Object> details) {
        try {
            Depth depth = queues.depth(id);
            long deadLetters = queues.deadLetterCount(id);
            details.put("depth", depth.tasks());
            details.put("oldestAgeSeconds", depth.oldestAge().toMillis() / 1000.0);
            details.put("deadLetters", deadLetters);
            Thresholds thresholds = properties.thresholds(id);
            List<String> exceeded = new ArrayList<>();
            if (thresholds.maxDeadLetters() != null && deadLetters > thresholds.maxDeadLetters()) {
                exceeded.add(deadLetters + " dead letters, more than max-dead-letters " + thresholds.maxDeadLetters());
            }
            if (thresholds.maxOldestAge() != null && depth.oldestAge().compareTo(thresholds.maxOldestAge()) > 0) {
                exceeded.add(olderThan(depth.oldestAge(), thresholds.maxOldestAge()));
            }
            if (!exceeded.isEmpty()) {
                details.put("exceeded", exceeded);
            }
            return exceeded.isEmpty();
        } catch (RuntimeException e) {
            details.put("error", e.toString());
            return false;
        }
    }
}
