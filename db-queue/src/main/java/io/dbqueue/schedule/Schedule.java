package io.dbqueue.schedule;

import io.dbqueue.common.Checks;
import io.dbqueue.common.Identifiers;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.queue.QueueLocation;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A recurring task: at each tick of {@code trigger}, a task with {@code payload} is enqueued into
 * {@code queue}, once across all processes. Ticks missed while nothing ran the schedule are handled
 * as {@code missed} says.
 *
 * <pre>{@code
 * Schedule.cron("nightly-report", reports, "0 30 2 * * *", ZoneId.of("Europe/Paris")).withPayload("{\"kind\":\"daily\"}");
 * Schedule.every("heartbeat", pings, Duration.ofSeconds(30)).withMissed(MissedTicks.RUN_ALL);
 * }</pre>
 *
 * @param name    the schedule's name, unique in the database
 * @param queue   where its tasks go
 * @param payload each task's payload
 * @param trigger when its ticks fall
 * @param missed  what happens to missed ticks; default {@link MissedTicks#RUN_ONCE}
 */
public record Schedule(String name, QueueLocation queue, String payload, Trigger trigger, MissedTicks missed) {

    public Schedule {
        Identifiers.scheduleName("name", name);
        Objects.requireNonNull(queue, "queue");
        if (payload == null || Checks.unstorable(payload) != null) {
            throw new InvalidValueException("payload", "must be text without NUL characters or unpaired surrogates",
                    payload);
        }
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(missed, "missed");
    }

    /** A schedule on {@code cron} in {@code zone}, with an empty payload; see {@link CronExpression}. */
    public static Schedule cron(String name, QueueLocation queue, String cron, ZoneId zone) {
        return new Schedule(name, queue, "", Trigger.cron(cron, zone), MissedTicks.RUN_ONCE);
    }

    /** A schedule every {@code interval} (at multiples of it since the epoch), with an empty payload. */
    public static Schedule every(String name, QueueLocation queue, Duration interval) {
        return new Schedule(name, queue, "", Trigger.every(interval), MissedTicks.RUN_ONCE);
    }

    public Schedule withPayload(String value) {
        return new Schedule(name, queue, value, trigger, missed);
    }

    public Schedule withMissed(MissedTicks value) {
        return new Schedule(name, queue, payload, trigger, value);
    }
}
