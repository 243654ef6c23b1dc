package io.dbqueue.spring.schedule;

import io.dbqueue.DbQueue;
import io.dbqueue.common.Identifiers;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.schedule.Schedule;
import io.dbqueue.schedule.Schedules;
import io.dbqueue.schedule.Trigger;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueLifecycle;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.InvalidConsumerException;
import io.dbqueue.spring.InvalidQueuePropertyException;
import org.springframework.boot.convert.DurationStyle;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Defines the {@link DbQueueScheduled} methods' schedules and those of {@code dbq.schedules} through the door's
 * {@link Schedules} on start, in the consumers' phase; the door stops taking ticks when it closes. With
 * {@code dbq.auto-startup=false} it starts, as the consumers do, only when {@link #start()} is called.
 */
public final class ScheduleDefinitions extends DbQueueLifecycle {

    private final Supplier<DbQueue> door;
    private final DbQueueProperties properties;
    private final DbQueueScheduleProperties schedules;
    private final ScheduledMethods methods;

    ScheduleDefinitions(Supplier<DbQueue> door, DbQueueProperties properties, DbQueueScheduleProperties schedules,
                        ScheduledMethods methods) {
        super(properties.autoStartup(), DbQueueAutoConfiguration.PHASE);
        this.door = door;
        this.properties = properties;
        this.schedules = schedules;
        this.methods = methods;
    }

    @Override
    protected void doStart() {
        Map<String, QueueConfig> configs = properties.configs();
        List<Schedule> all = new ArrayList<>();
        for (ScheduledMethod method : methods.all()) {
            all.add(ofMethod(method, configs));
        }
        schedules.schedules().forEach((name, schedule) -> all.add(ofProperties(name, schedule, configs)));
        if (!all.isEmpty()) {
            Schedules defined = door.get().schedules();
            all.forEach(defined::define);
        }
    }

    @Override
    protected void doStop() {
    }

    private static Schedule ofMethod(ScheduledMethod method, Map<String, QueueConfig> configs) {
        DbQueueScheduled annotation = method.annotation();
        String where = "@DbQueueScheduled " + method.name();
        QueueConfig queue = configs.get(annotation.queue());
        if (queue == null) {
            throw new InvalidConsumerException(where + " names queue '" + annotation.queue()
                    + "', which is not configured under dbq.queues (configured: " + configs.keySet() + ")");
        }
        if (annotation.cron().isEmpty() == annotation.interval().isEmpty()) {
            throw new InvalidConsumerException(where + " must give exactly one of cron and interval");
        }
        try {
            Trigger trigger = annotation.cron().isEmpty()
                    ? Trigger.every(DurationStyle.detectAndParse(annotation.interval()))
                    : Trigger.cron(annotation.cron(), ZoneId.of(annotation.zone()));
            return new Schedule(method.name(), queue.location(), method.name(), trigger, annotation.missed());
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new InvalidConsumerException(where + ": " + e.getMessage(), e);
        }
    }

    private static Schedule ofProperties(String name, DbQueueScheduleProperties.ScheduleProperties schedule,
                                         Map<String, QueueConfig> configs) {
        String prefix = "dbq.schedules." + name;
        InvalidQueuePropertyException.check(prefix, () -> Identifiers.scheduleName(name));
        QueueConfig queue = configs.get(schedule.queue());
        if (queue == null) {
            throw new InvalidQueuePropertyException(prefix + ".queue must be the id of a queue under dbq.queues"
                    + " (configured: " + configs.keySet() + "), was " + schedule.queue());
        }
        if ((schedule.cron() == null) == (schedule.interval() == null)) {
            throw new InvalidQueuePropertyException(prefix + " must set exactly one of cron and interval");
        }
        return InvalidQueuePropertyException.check(prefix, () -> {
            Trigger trigger = schedule.cron() == null ? Trigger.every(schedule.interval())
                    : Trigger.cron(schedule.cron(), zone(prefix, schedule.zone()));
            return new Schedule(name, queue.location(), schedule.payload(), trigger, schedule.missed());
        });
    }

    private static ZoneId zone(String prefix, String zone) {
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new InvalidQueuePropertyException(prefix + ".zone must be a time zone, e.g. Europe/Paris or UTC, was "
                    + zone);
        }
    }
}
