package io.dbqueue.spring.listener;

import io.dbqueue.common.DeliveryMode;
import org.springframework.aot.hint.annotation.Reflective;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that consumes a configured queue, as {@code @KafkaListener} and
 * {@code @RabbitListener} do. The method takes one parameter: a message type {@code T} (read from
 * each task's payload by the {@link io.dbqueue.spring.PayloadSerializer}; {@code String} is the raw
 * payload), a {@code List<T>} (the claimed batch), an {@link io.dbqueue.queue.Task} or an
 * {@link io.dbqueue.queue.TaskBatch}. A method taking one task or message may return a
 * {@link io.dbqueue.queue.TaskResult}; otherwise returning finishes and throwing fails (retried per
 * the queue's policy). A payload that cannot be read goes to the dead letters with the reason, as
 * does a failure of a type listed in {@link #deadLetterOn}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ListenerReflectiveProcessor.class) // found and invoked by reflection: hints for a native image
public @interface DbQueueListener {

    /** The id of the queue under {@code dbq.queues}. */
    String queue();

    /** Worker threads; 0 keeps {@code dbq.queues.<id>.threads}. */
    int concurrency() default 0;

    /** Tasks per claim; 0 keeps {@code dbq.queues.<id>.batch-size}. */
    int batchSize() default 0;

    /** The delivery mode, at most one; empty keeps {@code dbq.queues.<id>.mode}. */
    DeliveryMode[] mode() default {};

    /**
     * Failures that no retry can fix: a task whose handling throws one of these goes to the dead letters at once.
     * Exactly once, the batch rolls back first, the method's writes with it, and its other tasks are retried.
     */
    Class<? extends Throwable>[] deadLetterOn() default {};
}
