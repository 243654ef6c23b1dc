package io.dbqueue.queue;

import io.dbqueue.common.DeliveryMode;

/**
 * Receives each claimed batch. It answers per task through {@link TaskBatch} ({@code finish},
 * {@code fail}, {@code reenqueue}); tasks it does not answer are finished when it returns. If it
 * throws, every task it has not answered fails with the exception (in exactly-once mode the whole
 * batch is rolled back first).
 */
@FunctionalInterface
public interface BatchHandler {

    void handle(TaskBatch batch) throws Exception;

    /** A batch handler that gives each task to {@code handler} in claim order. */
    static BatchHandler perTask(TaskHandler handler) {
        return batch -> {
            for (Task task : batch.tasks()) {
                TaskResult result;
                try {
                    result = handler.handle(task, batch);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    TaskBatch.throwIfInterrupted(e);
                    if (batch.mode() == DeliveryMode.EXACTLY_ONCE) {
                        throw e;
                    }
                    result = e instanceof DeadLetterException named ? named.answer() : TaskResult.fail(TaskBatch.describe(e));
                }
                batch.answer(task, result);
            }
        };
    }
}
