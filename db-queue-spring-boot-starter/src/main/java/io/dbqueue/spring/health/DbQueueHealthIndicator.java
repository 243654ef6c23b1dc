package io.dbqueue.spring.health;

import io.dbqueue.common.Cached;
import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.health.DbQueueHealthProperties.Thresholds;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Health {@code dbQueue}: UP when the database answers, every queue's depth and dead letters can be read and are
 * within the {@code dbq.health.*} thresholds, and every consumed queue's workers are running; DOWN otherwise. Details
 * per queue id: depth, age of the oldest task, dead letters, the state of its workers and the thresholds it passed.
 * A check answers within {@link Cached#TIMEOUT}: while the database does not answer, health says DOWN within that
 * rather than wait for it (the check goes on in the background, and the next one may take its result). The figures
 * are {@link DbQueues}', read at most once per few seconds; whether the database answers is asked anew on each check.
 */
public final class DbQueueHealthIndicator extends AbstractHealthIndicator {

    private final DbQueues queues;
    private final DbQueueHealthProperties properties;
    private final Cached<Boolean> reachable;
    private final Cached<Health> check = new Cached<>(this::check, Duration.ZERO, Cached.TIMEOUT);

    public DbQueueHealthIndicator(DbQueues queues, DataSource dataSource, DbQueueHealthProperties properties) {
        super("db-queue health check failed");
        properties.check(queues.ids());
        this.queues = queues;
        this.properties = properties;
        this.reachable = new Cached<>(() -> ping(dataSource), Duration.ZERO, Cached.TIMEOUT);
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
        boolean up = true;
        String unreachable = null;
        try {
            reachable.get();
        } catch (RuntimeException e) {
            up = false;
            unreachable = e.getMessage();
            builder.withDetail("error", "database unreachable: " + unreachable);
        }
        for (String id : queues.ids()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("location", queues.location(id).toString());
            if (unreachable == null) {
                up &= figures(id, details);
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
                exceeded.add("oldest task " + depth.oldestAge().toSeconds() + " s old, older than max-oldest-age "
                        + thresholds.maxOldestAge().toSeconds() + " s");
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
