package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.schedule.ScheduleSchema;
import io.dbqueue.schedule.ScheduleState;
import io.dbqueue.schedule.Trigger;
import io.dbqueue.spring.schedule.DbQueueScheduleAutoConfiguration;
import io.dbqueue.spring.schedule.DbQueueScheduled;
import io.dbqueue.spring.schedule.ScheduleDefinitions;
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

    /** With dbq.auto-startup=false the schedules are defined when their lifecycle is started, as the consumers are. */
    @Test
    void withoutAutoStartupTheSchedulesAreDefinedWhenStarted() {
        String table = createTable(Layout.DBQ_SEQ);
        Jobs jobs = new Jobs();
        runner(table).withPropertyValues("jobs.zone=UTC", "dbq.auto-startup=false").withBean(Jobs.class, () -> jobs)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String nightly = "SELECT count(*) FROM dbq_schedules WHERE name = 'nightly-report'"
                            + " AND queue_table = '" + table + "'";
                    ScheduleSchema.createIfMissing(StarterTestSupport.dataSource());
                    assertThat(count(nightly)).isZero();
                    context.getBean(QueueConsumerWorkers.class).start();
                    context.getBean(ScheduleDefinitions.class).start();
                    assertThat(count(nightly)).isEqualTo(1);
                    await(Duration.ofSeconds(30), "a tick run", () -> jobs.ticks.get() >= 1);
                });
    }

    /**
     * A tick of a schedule whose method this application lacks (another version defines it, during a rolling deploy)
     * fails as a method's failure does, retried for an instance that has it, not dead-lettered at once.
     */
    @Test
    void aTickOfAMethodThisApplicationLacksIsRetried() {
        String table = createTable(Layout.DBQ_SEQ);
        runner(table).withPropertyValues("jobs.zone=UTC", "jobs.tick-interval=1h", "dbq.queues.jobs.retry.type=linear",
                "dbq.queues.jobs.retry.interval=10ms", "dbq.queues.jobs.retry.max-attempts=1000").withBean(Jobs.class, Jobs::new).run(context -> {
                    assertThat(context).hasNotFailed();
                    StarterTestSupport.execute("INSERT INTO " + table + " (queue_name, payload) VALUES ('jobs', 'Next.version')");
                    await(Duration.ofSeconds(30), "the tick failed once and is tried again", () -> count(
                            "SELECT count(*) FROM " + table + " WHERE payload = 'Next.version' AND attempt >= 2") == 1);
                    assertThat(count("SELECT count(*) FROM " + table + "_dead")).isZero();
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
