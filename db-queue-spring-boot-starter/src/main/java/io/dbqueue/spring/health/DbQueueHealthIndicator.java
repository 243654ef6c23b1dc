package io.dbqueue.spring.health;

import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.QueueDepths;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Health {@code dbQueue}: UP when every queue's depth can be read and every consumed queue's workers
 * are running; DOWN otherwise. Details per queue id: depth, age of the oldest task, and the state of
 * its workers. Depths come from {@link QueueDepths}, so probes do not count the queue each time.
 */
public final class DbQueueHealthIndicator extends AbstractHealthIndicator {

    private final DbQueues queues;
    private final QueueDepths depths;

    public DbQueueHealthIndicator(DbQueues queues, QueueDepths depths) {
        super("db-queue health check failed");
        this.queues = queues;
        this.depths = depths;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean up = true;
        for (String id : queues.ids()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("location", queues.location(id).toString());
            QueueDepths.Reading reading = depths.read(id);
            if (reading.depth() != null) {
                details.put("depth", reading.depth().tasks());
                details.put("oldestAgeSeconds", reading.depth().oldestAge().toMillis() / 1000.0);
            } else {
                up = false;
                details.put("error", reading.failure().toString());
            }
            Optional<QueueWorkers> workers = queues.workers(id);
            details.put("workers", workers.map(DbQueueHealthIndicator::state).orElse("none"));
            if (workers.isPresent()) {
                details.put("busyWorkers", workers.get().busyWorkers());
                up &= workers.get().isRunning();
            }
            builder.withDetail(id, details);
        }
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }

    private static String state(QueueWorkers workers) {
        return !workers.isRunning() ? "stopped" : workers.isPaused() ? "paused" : "running";
    }
}
