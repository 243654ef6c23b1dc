package io.dbqueue.schedule;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * docs/schedules.md's example, compiled and run by {@link SchedulesDocExampleTest}: the lines between
 * {@code // DOCS: example} and {@code // DOCS: end} are the page's block, without their indent.
 */
final class SchedulesDocExample {

    final List<String> handled = new CopyOnWriteArrayList<>();

    void run(DbQueue dbq) {
        // DOCS: example
        QueueLocation reports = QueueTable.of(Layout.DBQ_SEQ).queue("reports");
        Schedules schedules = dbq.schedules();                     // creates dbq_schedules if it is missing
        schedules.define(Schedule.cron("nightly-report", reports, "0 30 2 * * *", ZoneId.of("Europe/Paris"))
                .withPayload("{\"report\":\"daily\"}"));          // 02:30 in Paris, once across all processes
        schedules.define(Schedule.every("heartbeat", reports, Duration.ofSeconds(1))
                .withPayload("{\"ping\":true}")
                .withMissed(MissedTicks.RUN_ALL));                 // after downtime, a task per missed tick
        dbq.consume(QueueConfig.of(reports), batch -> batch.tasks().forEach(task -> handle(task.payload())));
        schedules.triggerNow("nightly-report");                    // one task now; the next tick stays 02:30
        // DOCS: end
    }

    private void handle(String payload) {
        handled.add(payload);
    }
}
