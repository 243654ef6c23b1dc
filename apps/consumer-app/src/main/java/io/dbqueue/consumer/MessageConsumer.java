package io.dbqueue.consumer;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.QueueConsumer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The experiment's processing: a message is valid when it names its run. An invalid one fails
 * (and ends in the dead letters after its retries). Valid ones are reported to test-app, and
 * finish when the report is delivered: the statistics are as durable as the queue, where reporting
 * after the acknowledgement lost those of every message finished in the last moments before a kill.
 * A message's completion time is therefore the end of its handling, before the acknowledgement
 * commits.
 */
final class MessageConsumer implements QueueConsumer {

    private final String queueId;
    private final MessagePayload payloads;
    private final MessageTimings timings;
    private final StatsReporter reporter;
    private final boolean effects;

    MessageConsumer(String queueId, MessagePayload payloads, MessageTimings timings, StatsReporter reporter,
                    boolean effects) {
        this.queueId = queueId;
        this.payloads = payloads;
        this.timings = timings;
        this.reporter = reporter;
        this.effects = effects;
    }

    @Override
    public String queueId() {
        return queueId;
    }

    @Override
    public void handle(TaskBatch batch) throws InterruptedException, SQLException {
        long now = MessageTimings.micros(Instant.now());
        List<Stat> stats = new ArrayList<>(batch.tasks().size());
        for (Task task : batch.tasks()) {
            try {
                long testId = payloads.testId(task.payload());
                stats.add(new Stat(testId, task.id(), MessageTimings.micros(task.createdAt()),
                        timings.claimedAt(task, now), now));
            } catch (IllegalArgumentException e) {
                batch.fail(task, e.getMessage());
            }
        }
        if (effects && batch.mode() == DeliveryMode.EXACTLY_ONCE) {
            countEffects(batch.connection(), stats);
        }
        reporter.deliver(stats);
    }

    /** One effect per message, in the batch's transaction: a second effect of the same message counts up. */
    private static void countEffects(Connection c, List<Stat> stats) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EffectsTable.COUNT)) {
            ps.setArray(1, c.createArrayOf("bigint", stats.stream().map(Stat::taskId).toArray()));
            ps.executeUpdate();
        }
    }
}
