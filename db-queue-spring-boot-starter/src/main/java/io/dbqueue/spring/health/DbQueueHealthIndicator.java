package io.dbqueue.spring.health;

import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.DbQueues;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Health {@code dbQueue}: UP when every queue's depth can be read and every consumed queue's workers are running;
 * DOWN otherwise. Details per queue id: depth, age of the oldest task, and the state of its workers. Depths are
 * {@link DbQueues#depth}'s, read at most once per few seconds.
 */
public final class DbQueueHealthIndicator extends AbstractHealthIndicator {

    private final DbQueues queues;

    public DbQueueHealthIndicator(DbQueues queues) {
        super("db-queue health check failed");
        this.queues = queues;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean up = true;
        for (String id : queues.ids()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("location", queues.location(id).toString());
            try {
                Depth depth = queues.depth(id);
                details.put("depth", depth.tasks());
                details.put("oldestAgeSeconds", depth.oldestAge().toMillis() / 1000.0);
            } catch (RuntimeException e) {
                up = false;
                details.put("error", e.toString());
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
        builder.status(up ? "UP" : "DOWN");
    }
}
