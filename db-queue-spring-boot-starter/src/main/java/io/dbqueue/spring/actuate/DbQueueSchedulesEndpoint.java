package io.dbqueue.spring.actuate;

import io.dbqueue.DbQueue;
import io.dbqueue.schedule.ScheduleState;
import io.dbqueue.schedule.Schedules;
import io.dbqueue.schedule.UnreadableScheduleException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import javax.sql.DataSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The Actuator endpoint {@code dbqueueschedules}: {@code GET /actuator/dbqueueschedules} lists every schedule in the
 * database, {@code GET /actuator/dbqueueschedules/{name}} one (404 when there is none), and
 * {@code POST /actuator/dbqueueschedules/{name}/{action}} changes one, only with {@code dbq.endpoint.write-enabled}
 * (else {@link WritesDisabledException}: 403 over HTTP). Actions: {@code pause} and {@code resume} (every instance),
 * {@code trigger} (a task now, beside the ticks; the schedule must be defined in this instance) and {@code delete}.
 */
@Endpoint(id = "dbqueueschedules")
public class DbQueueSchedulesEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(DbQueueSchedulesEndpoint.class);
    private static final List<String> ACTIONS = List.of("pause", "resume", "trigger", "delete");

    private final DbQueue door;
    private final DbQueueEndpointProperties properties;

    public DbQueueSchedulesEndpoint(DbQueue door, DbQueueEndpointProperties properties) {
        this.door = door;
        this.properties = properties;
    }

    /**
     * A schedule as the endpoint shows it; one whose row this instance cannot read (a zone or trigger of a newer
     * version) has only its name and the {@code error}.
     *
     * @param queue   its queue, {@code table/queue_name}
     * @param trigger its cron and zone, or its interval
     * @param nextDue its next tick not yet enqueued
     */
    public record Schedule(String name, @Nullable String queue, @Nullable String trigger, @Nullable String missed,
                           @Nullable Instant nextDue, @Nullable Boolean paused, @Nullable String payload,
                           @Nullable String error) {

        static Schedule of(ScheduleState s) {
            return new Schedule(s.name(), s.queueTable() + "/" + s.queueName(), s.trigger().toString(),
                    s.missed().name(), s.nextDue(), s.paused(), s.payload(), null);
        }

        static Schedule unreadable(UnreadableScheduleException e) {
            return new Schedule(e.name(), null, null, null, null, null, null, e.getMessage());
        }
    }

    /** What a write did: {@code affected} is 1, or 0 when there was no such schedule; {@code taskId} a trigger's task. */
    public record Change(String schedule, String action, long affected, @Nullable Long taskId) {
    }

    /**
     * Every schedule, by name; one row this instance cannot read is listed with its error, not a failure of all. Read
     * as stored: a look neither creates the table nor starts taking ticks in an instance that defines no schedule.
     */
    @ReadOperation
    public List<Schedule> schedules() {
        List<Schedule> unreadable = new ArrayList<>();
        List<Schedule> all = new ArrayList<>(Schedules.stored(door.dataSource(),
                e -> unreadable.add(Schedule.unreadable(e))).stream().map(Schedule::of).toList());
        all.addAll(unreadable);
        all.sort(Comparator.comparing(Schedule::name));
        return all;
    }

    /** One schedule; null (404) when there is none of that name. */
    @ReadOperation
    public @Nullable Schedule schedule(@Selector String name) {
        return schedules().stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * Changes schedule {@code name}. {@code by}, optional, names who asked, for the log line each change writes. Over
     * HTTP the write takes a JSON body ({@code {}} will do), as {@code dbqueue}'s do: a body-less POST is what a page
     * of another site can send without asking, with the browser's credentials for this one.
     */
    @WriteOperation
    public Change change(@Selector String name, @Selector String action, @Nullable String by) {
        if (!properties.writeEnabled()) {
            throw new WritesDisabledException("dbqueueschedules");
        }
        LOG.info("dbqueueschedules: {} {}{}", action, name, by == null ? "" : " (by " + by + ")");
        DataSource stored = door.dataSource(); // changed as stored: an instance that takes no ticks starts none
        try {
            return switch (action) {
                case "pause" -> new Change(name, action, Schedules.setPausedStored(stored, name, true) ? 1 : 0, null);
                case "resume" -> new Change(name, action, door.startedSchedules() // there, it wakes the tick thread
                        .map(taking -> taking.resume(name))
                        .orElseGet(() -> Schedules.setPausedStored(stored, name, false)) ? 1 : 0, null);
                case "delete" -> new Change(name, action, Schedules.deleteStored(stored, name) ? 1 : 0, null);
                case "trigger" -> new Change(name, action, 1, door.startedSchedules() // defined here, or refused
                        .orElseThrow(() -> refused("schedule '" + name + "' is not defined in this process: trigger it"
                                + " where it is defined"))
                        .triggerNow(name));
                default -> throw refused("unknown action '" + action + "'; actions: " + ACTIONS);
            };
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
    }

    private static InvalidEndpointRequestException refused(String reason) {
        return new InvalidEndpointRequestException(reason, reason);
    }
}
