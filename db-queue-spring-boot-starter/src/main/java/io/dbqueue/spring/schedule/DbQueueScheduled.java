package io.dbqueue.spring.schedule;

import io.dbqueue.schedule.MissedTicks;
import org.springframework.aot.hint.annotation.Reflective;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a bean method, which takes no parameter, at each tick of a schedule, once across all instances
 * of the application: each tick enqueues a task (its payload the schedule's name) into {@link #queue},
 * and the starter consumes that queue by calling the method the task names. So a tick is run by one
 * instance, retried per the queue's retry policy when the method throws, and dead-lettered when it
 * runs out of attempts. Give exactly one of {@link #cron} and {@link #interval}.
 *
 * <pre>{@code
 * @DbQueueScheduled(cron = "0 30 2 * * *", zone = "Europe/Paris", queue = "jobs")
 * void nightlyReport() { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective // found and invoked by reflection: a hint for a native image
public @interface DbQueueScheduled {

    /**
     * The id of the queue under {@code dbq.queues} that carries the ticks. The starter consumes it with
     * the scheduled methods, so it must have no other consumer; several scheduled methods may share it.
     */
    String queue();

    /** A cron expression of 5 fields, or 6 with seconds first (see {@link io.dbqueue.schedule.CronExpression}). */
    String cron() default "";

    /** The time zone the cron expression is read in. */
    String zone() default "UTC";

    /** A fixed interval instead of a cron, e.g. {@code 30s} or {@code PT5M}: ticks at its multiples since the epoch. */
    String interval() default "";

    /** The schedule's name, unique in the database; empty is {@code <SimpleClassName>.<method>}. */
    String name() default "";

    /** What happens to ticks missed while no instance ran. */
    MissedTicks missed() default MissedTicks.RUN_ONCE;
}
