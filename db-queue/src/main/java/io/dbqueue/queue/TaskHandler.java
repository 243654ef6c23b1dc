package io.dbqueue.queue;

/** Handles one task at a time; {@link BatchHandler#perTask} runs it over a batch. */
@FunctionalInterface
public interface TaskHandler {

    /**
     * @return what to do with the task; throwing counts as {@link TaskResult#fail} with the exception's message
     */
    TaskResult handle(Task task, TaskBatch batch) throws Exception;
}
