package io.dbqueue.spring.schedule;

import io.dbqueue.schedule.MissedTicks;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * The {@code dbq.schedules.*} properties: recurring tasks that enqueue a payload into a configured queue,
 * whose consumer handles them as any other task.
 *
 * @param schedules The schedules, by name (unique in the database: A-Z, a-z, 0-9 and _ . : -).
 */
@ConfigurationProperties("dbq")
public record DbQueueScheduleProperties(Map<String, ScheduleProperties> schedules) {

    public DbQueueScheduleProperties {
        schedules = schedules == null ? Map.of() : schedules;
    }

    /**
     * One schedule; give exactly one of {@code cron} and {@code interval}.
     *
     * @param queue    The id of the queue under dbq.queues that each tick's task goes to.
     * @param cron     A cron expression of 5 fields, or 6 with seconds first.
     * @param zone     The time zone the cron expression is read in.
     * @param interval A fixed interval instead of a cron: ticks at its multiples since the epoch.
     * @param payload  Each task's payload.
     * @param missed   What happens to ticks missed while no instance ran: one task for them all, or one each.
     */
    public record ScheduleProperties(String queue, String cron, @DefaultValue("UTC") String zone, Duration interval,
                                     @DefaultValue("") String payload,
                                     @DefaultValue("run-once") MissedTicks missed) {
    }
}
