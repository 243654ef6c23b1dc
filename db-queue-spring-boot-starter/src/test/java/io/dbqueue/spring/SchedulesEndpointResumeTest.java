package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.schedule.Schedule;
import io.dbqueue.schedule.ScheduleState;
import io.dbqueue.spring.actuate.DbQueueEndpointProperties;
import io.dbqueue.spring.actuate.DbQueueSchedulesEndpoint;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The schedules endpoint's resume in an instance that takes ticks wakes its tick thread, as Schedules.resume does. */
class SchedulesEndpointResumeTest {

    /**
     * With an hour between checks, a tick that fell while paused is taken as soon as the endpoint resumes the
     * schedule. The endpoint changed only the stored row, and the tick waited for the next check.
     */
    @Test
    void aResumeTakesTheTickThatFellWhilePaused() throws Exception {
        String table = StarterTestSupport.createTable(Layout.DBQ_SEQ);
        QueueLocation queue = new QueueTable(table, Layout.DBQ_SEQ).queue("resumed");
        try (DbQueue door = DbQueue.builder(StarterTestSupport.dataSource())
                .scheduleCheckInterval(Duration.ofHours(1)).build()) {
            DbQueueSchedulesEndpoint endpoint = new DbQueueSchedulesEndpoint(door, new DbQueueEndpointProperties(true, 5));
            String name = "resumed-" + table;
            door.schedules().define(Schedule.every(name, queue, Duration.ofSeconds(2)));
            assertThat(endpoint.change(name, "pause", null).affected()).isOne();
            Instant due = door.schedules().list().stream().filter(s -> s.name().equals(name)).findFirst()
                    .map(ScheduleState::nextDue).orElseThrow();
            StarterTestSupport.await(Duration.ofSeconds(30), "the tick fell while paused",
                    () -> Instant.now().isAfter(due.plusMillis(100)));
            long before = StarterTestSupport.count("SELECT count(*) FROM " + table);
            assertThat(endpoint.change(name, "resume", null).affected()).isOne();
            StarterTestSupport.await(Duration.ofSeconds(10), "the tick taken after the resume",
                    () -> StarterTestSupport.count("SELECT count(*) FROM " + table) > before);
        }
    }
}
