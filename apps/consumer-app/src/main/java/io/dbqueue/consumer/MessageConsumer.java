package io.dbqueue.consumer;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.QueueConsumer;

/**
 * The experiment's processing: a message is valid when it names its run. An invalid one fails
 * (and ends in the dead letters after its retries); valid ones finish when the handler returns.
 */
final class MessageConsumer implements QueueConsumer {

    private final String queueId;
    private final MessagePayload payloads;

    MessageConsumer(String queueId, MessagePayload payloads) {
        this.queueId = queueId;
        this.payloads = payloads;
    }

    @Override
    public String queueId() {
        return queueId;
    }

    @Override
    public void handle(TaskBatch batch) {
        for (Task task : batch.tasks()) {
            try {
                payloads.testId(task.payload());
            } catch (IllegalArgumentException e) {
                batch.fail(task, e.getMessage());
            }
        }
    }
}
