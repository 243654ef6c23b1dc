package io.dbqueue.spring.listener;

import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;
import io.dbqueue.spring.PayloadSerializer;
import io.dbqueue.spring.PayloadSerializer.PayloadException;
import io.dbqueue.spring.QueueConsumer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** A {@link DbQueueListener} method as the {@link QueueConsumer} of its queue. */
public final class MethodQueueConsumer implements QueueConsumer {

    private final Object bean;
    private final Method invocable;
    private final ListenerMethod listener;
    private final DbQueueListener annotation;
    private final Supplier<PayloadSerializer> serializer;

    MethodQueueConsumer(Object bean, Method invocable, ListenerMethod listener, DbQueueListener annotation,
                        Supplier<PayloadSerializer> serializer) {
        this.bean = bean;
        this.invocable = invocable;
        this.listener = listener;
        this.annotation = annotation;
        this.serializer = serializer;
        if (annotation.mode().length > 1) {
            throw new IllegalStateException("@DbQueueListener on " + listener.describe() + " names " + annotation.mode().length
                    + " modes; name one, or none to keep dbq.queues." + annotation.queue() + ".mode");
        }
    }

    @Override
    public String queueId() {
        return annotation.queue();
    }

    /** The queue's configuration with the annotation's concurrency, batch size and mode, where it sets them. */
    @Override
    public QueueConfig configure(QueueConfig configured) {
        QueueConfig config = configured;
        try {
            if (annotation.concurrency() != 0) {
                config = config.withThreads(annotation.concurrency());
            }
            if (annotation.batchSize() != 0) {
                config = config.withBatchSize(annotation.batchSize());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("@DbQueueListener on " + listener.describe() + ": " + e.getMessage(), e);
        }
        if (annotation.mode().length == 1) {
            config = config.withMode(annotation.mode()[0]);
        }
        return config;
    }

    @Override
    public void handle(TaskBatch batch) throws Exception {
        switch (listener.kind()) {
            case BATCH -> handleBatch(batch);
            case LIST -> handleList(batch);
            case TASK, MESSAGE -> {
                for (Task task : batch.tasks()) {
                    handleOne(batch, task);
                }
            }
        }
    }

    private void handleBatch(TaskBatch batch) throws Exception {
        try {
            invoke(batch);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            if (!deadLetterOn(e)) {
                throw e;
            }
            batch.tasks().forEach(task -> batch.answer(task, TaskResult.deadLetter(TaskBatch.describe(e))));
        }
    }

    private void handleList(TaskBatch batch) throws InterruptedException {
        List<Object> messages = new ArrayList<>();
        List<Task> readable = new ArrayList<>();
        for (Task task : batch.tasks()) {
            try {
                messages.add(serializer.get().deserialize(task.payload(), listener.messageType()));
                readable.add(task);
            } catch (PayloadException e) {
                batch.answer(task, TaskResult.deadLetter(e.getMessage()));
            }
        }
        if (readable.isEmpty()) {
            return;
        }
        try {
            invoke(messages);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            TaskResult failed = failure(e);
            readable.forEach(task -> batch.answer(task, failed));
        }
    }

    private void handleOne(TaskBatch batch, Task task) throws InterruptedException {
        Object argument;
        if (listener.kind() == ListenerMethod.Kind.TASK) {
            argument = task;
        } else {
            try {
                argument = serializer.get().deserialize(task.payload(), listener.messageType());
            } catch (PayloadException e) {
                batch.answer(task, TaskResult.deadLetter(e.getMessage()));
                return;
            }
        }
        try {
            Object result = invoke(argument);
            batch.answer(task, result instanceof TaskResult answer ? answer : TaskResult.finish());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            batch.answer(task, failure(e));
        }
    }

    private TaskResult failure(Exception e) {
        return deadLetterOn(e) ? TaskResult.deadLetter(TaskBatch.describe(e)) : TaskResult.fail(TaskBatch.describe(e));
    }

    private boolean deadLetterOn(Throwable e) {
        for (Class<? extends Throwable> type : annotation.deadLetterOn()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    /** Calls the method; what it throws comes out as itself (an Error as it is, a checked exception as an Exception). */
    private Object invoke(Object argument) throws Exception {
        try {
            return invocable.invoke(bean, argument);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }

    @Override
    public String toString() {
        return "@DbQueueListener " + listener.describe();
    }
}
