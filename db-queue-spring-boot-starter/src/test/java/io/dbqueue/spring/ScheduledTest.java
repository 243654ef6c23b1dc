package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.schedule.ScheduleState;
import io.dbqueue.schedule.Trigger;
import io.dbqueue.spring.schedule.DbQueueScheduleAutoConfiguration;
import io.dbqueue.spring.schedule.DbQueueScheduled;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.messages;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code @DbQueueScheduled} methods and {@code dbq.schedules}, end to end on the test database. */
class ScheduledTest {

    static class Jobs {
        final AtomicInteger ticks = new AtomicInteger();

        @DbQueueScheduled(interval = "${jobs.tick-interval:100ms}", queue = "jobs") // placeholders, as @Scheduled's
        void tick() {
            ticks.incrementAndGet();
        }

        @DbQueueScheduled(cron = "0 30 2 * * *", zone = "${jobs.zone}", queue = "jobs", name = "nightly-report")
        void report() {
        }
    }

    static class BothTriggers {
        @DbQueueScheduled(cron = "* * * * *", interval = "1s", queue = "jobs")
        void run() {
        }
    }

    private static ApplicationContextRunner runner(String table) {
        return StarterTestSupport.runner()
                .withConfiguration(AutoConfigurations.of(DbQueueScheduleAutoConfiguration.class))
                .withPropertyValues("dbq.queues.jobs.table=" + table, "dbq.queues.jobs.layout=dbq_seq",
                        "dbq.queues.jobs.wakeup=notify", "dbq.queues.jobs.no-task-timeout=200ms",
                        "dbq.queues.pings.table=" + table, "dbq.queues.pings.layout=dbq_seq",
                        "dbq.queues.pings.queue-name=pings-" + table);
    }

    @Test
    void anAnnotatedMethodRunsAtItsTicks() {
        String table = createTable(Layout.DBQ_SEQ);
        Jobs jobs = new Jobs();
        runner(table).withPropertyValues("jobs.zone=Europe/Paris").withBean(Jobs.class, () -> jobs).run(context -> {
            assertThat(context).hasNotFailed();
            await(Duration.ofSeconds(30), "three ticks run", () -> jobs.ticks.get() >= 3);
            Map<String, ScheduleState> schedules = context.getBean(DbQueue.class).schedules().list().stream()
                    .collect(Collectors.toMap(ScheduleState::name, s -> s));
            assertThat(schedules.get("Jobs.tick").trigger()).isEqualTo(Trigger.every(Duration.ofMillis(100)));
            assertThat(schedules.get("Jobs.tick").queueName()).isEqualTo("jobs");
            assertThat(schedules.get("nightly-report").trigger())
                    .isEqualTo(Trigger.cron("0 30 2 * * *", ZoneId.of("Europe/Paris")));
        });
    }

    @Test
    void aConfiguredScheduleEnqueuesItsPayload() {
        String table = createTable(Layout.DBQ_SEQ);
        runner(table).withPropertyValues("dbq.schedules.ping-" + table + ".queue=pings",
                "dbq.schedules.ping-" + table + ".interval=100ms",
                "dbq.schedules.ping-" + table + ".payload={\"ping\":true}",
                "dbq.schedules.ping-" + table + ".missed=run-all").run(context -> {
            assertThat(context).hasNotFailed();
            await(Duration.ofSeconds(30), "two ticks enqueued", () -> count("SELECT count(*) FROM " + table
                    + " WHERE queue_name = 'pings-" + table + "' AND payload = '{\"ping\":true}'") >= 2);
        });
    }

    @Test
    void aScheduleWithBothTriggersFailsStartUpNamingIt() {
        String table = createTable(Layout.DBQ_SEQ);
        runner(table).withBean(BothTriggers.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("@DbQueueScheduled BothTriggers.run must give exactly one of cron and interval");
        });
    }

    @Test
    void aConfiguredScheduleOnAnUnknownQueueFailsStartUpNamingTheProperty() {
        String table = createTable(Layout.DBQ_SEQ);
        runner(table).withPropertyValues("dbq.schedules.lost.queue=nowhere", "dbq.schedules.lost.cron=* * * * *")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(messages(context.getStartupFailure()))
                            .contains("dbq.schedules.lost.queue must be the id of a queue under dbq.queues");
                });
    }
}
