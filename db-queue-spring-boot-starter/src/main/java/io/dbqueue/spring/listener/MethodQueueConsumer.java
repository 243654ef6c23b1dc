package io.dbqueue.spring.listener;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.DeadLetterException;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;
import io.dbqueue.spring.PayloadSerializer;
import io.dbqueue.spring.PayloadSerializer.PayloadException;
import io.dbqueue.spring.QueueConsumer;
import io.dbqueue.spring.InvalidConsumerException;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.ResolvableType;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** A {@link DbQueueListener} method as the {@link QueueConsumer} of its queue; a signature it cannot take fails, naming the method. */
public final class MethodQueueConsumer implements QueueConsumer {

    private final Object bean;
    private final Method invocable;
    private final DbQueueListener annotation;
    private final String queueId; // the annotation's, placeholders resolved
    private final Supplier<PayloadSerializer> serializer;
    private final String name;
    private final Class<?> parameter; // TaskBatch, Task, List or a message type
    private final Type messageType; // a message's, or a List's elements'; null for TaskBatch and Task

    MethodQueueConsumer(Object bean, Method method, Method invocable, DbQueueListener annotation, String queueId,
                        Supplier<PayloadSerializer> serializer) {
        this.bean = bean;
        this.invocable = invocable;
        this.annotation = annotation;
        this.queueId = queueId;
        this.serializer = serializer;
        this.name = method.getDeclaringClass().getName() + "." + method.getName();
        if (method.getParameterCount() != 1) {
            throw new InvalidConsumerException("@DbQueueListener method " + name + " must take one parameter (a message"
                    + " type, a List of one, Task or TaskBatch); it takes " + method.getParameterCount());
        }
        // bound by the bean's class: a method of a generic base class (on(T message)) takes its subclass's type
        Class<?> beanClass = AopUtils.getTargetClass(bean);
        Type declared = method.getGenericParameterTypes()[0];
        Type generic = MessageTypes.bound(declared, beanClass);
        if (generic == null) {
            throw new InvalidConsumerException("@DbQueueListener method " + name + " takes " + declared.getTypeName()
                    + ", which " + beanClass.getName() + " does not bind to classes; declare the message type there");
        }
        this.parameter = ResolvableType.forType(generic).toClass();
        if (parameter == List.class) {
            if (!(generic instanceof ParameterizedType list) || !(list.getActualTypeArguments()[0] instanceof Class
                    || list.getActualTypeArguments()[0] instanceof ParameterizedType)) {
                throw new InvalidConsumerException("@DbQueueListener method " + name + " takes a List without a concrete"
                        + " element type; declare it as List<YourMessage>");
            }
            this.messageType = list.getActualTypeArguments()[0];
        } else {
            this.messageType = parameter == TaskBatch.class || parameter == Task.class ? null : generic;
        }
        boolean perTask = parameter != TaskBatch.class && parameter != List.class;
        Class<?> returns = method.getReturnType();
        if (returns != void.class && !(perTask && returns == TaskResult.class)) {
            throw new InvalidConsumerException("@DbQueueListener method " + name + " must return void" + (perTask
                    ? " or TaskResult" : "") + ", returns " + returns.getName());
        }
        if (annotation.mode().length > 1) {
            throw new InvalidConsumerException("@DbQueueListener on " + name + " names " + annotation.mode().length
                    + " modes; name one, or none to keep dbq.queues." + queueId + ".mode");
        }
    }

    @Override
    public String queueId() {
        return queueId;
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
            return annotation.mode().length == 1 ? config.withMode(annotation.mode()[0]) : config;
        } catch (IllegalArgumentException e) {
            throw new InvalidConsumerException("@DbQueueListener on " + name + " with the properties of dbq.queues."
                    + queueId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void handle(TaskBatch batch) throws Exception {
        if (parameter == TaskBatch.class) {
            handleBatch(batch);
        } else if (parameter == List.class) {
            handleList(batch);
        } else {
            for (Task task : batch.tasks()) {
                handleOne(batch, task);
            }
        }
    }

    private void handleBatch(TaskBatch batch) throws Exception {
        try {
            invoke(batch);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // the core answers the tasks a DeadLetterException names, rolling back where it must
            throw deadLetterOn(e) ? new DeadLetterException(batch.tasks(), e) : e;
        }
    }

    private void handleList(TaskBatch batch) throws Exception {
        List<Object> messages = new ArrayList<>();
        List<Task> readable = new ArrayList<>();
        List<Task> unreadable = new ArrayList<>();
        PayloadException unread = null;
        for (Task task : batch.tasks()) {
            try {
                messages.add(serializer.get().deserialize(task.payload(), messageType));
                readable.add(task);
            } catch (PayloadException e) {
                batch.answer(task, TaskResult.deadLetter(e.getMessage()));
                unreadable.add(task);
                unread = unread == null ? e : unread;
            }
        }
        if (unread != null && rollsBack(batch)) { // answered in a transaction a later failure would roll back
            throw new DeadLetterException(unreadable, unread);
        }
        if (readable.isEmpty()) {
            return;
        }
        try {
            invoke(messages);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw deadLetterOn(e) ? new DeadLetterException(readable, e) : e;
        }
    }

    private void handleOne(TaskBatch batch, Task task) throws Exception {
        Object argument;
        try {
            argument = parameter == Task.class ? task : serializer.get().deserialize(task.payload(), messageType);
        } catch (PayloadException e) {
            if (rollsBack(batch)) { // an answer here would be rolled back by a later task's failure
                throw new DeadLetterException(task, e);
            }
            batch.answer(task, TaskResult.deadLetter(e.getMessage()));
            return;
        }
        try {
            Object result = invoke(argument);
            batch.answer(task, result instanceof TaskResult answer ? answer : TaskResult.finish());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            TaskBatch.throwIfInterrupted(e); // interrupted: the batch's failure, not this task's alone
            if (rollsBack(batch)) {
                throw deadLetterOn(e) ? new DeadLetterException(task, e) : e;
            }
            batch.answer(task, failure(e));
        }
    }

    /**
     * Whether a failure must roll the batch back instead of being answered: exactly once, the method's writes are
     * in the batch's transaction, and an answer would commit them with it. The batch's tasks are then retried by
     * the queue's policy, as the core's per-task handler does, but for those a {@link DbQueueListener#deadLetterOn}
     * failure names ({@link DeadLetterException}): they go to the dead letters, their writes undone all the same.
     */
    private static boolean rollsBack(TaskBatch batch) {
        return batch.mode() == DeliveryMode.EXACTLY_ONCE;
    }

    private TaskResult failure(Exception e) {
        if (e instanceof DeadLetterException named) { // the method's own: its cause is the error
            return named.answer();
        }
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
            if (e.getCause() instanceof Exception exception) {
                throw exception;
            }
            throw (Error) e.getCause();
        }
    }

    @Override
    public String toString() {
        return "@DbQueueListener " + name;
    }
}
