package io.dbqueue.schedule;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Wakeup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Schedules against PostgreSQL: several schedulers on one database take each tick once; a restart
 * catches up as the schedule's {@link MissedTicks} says; pause, resume, trigger, list and delete.
 * Most tests move a {@link TestClock} and call {@link Schedules#runDue} themselves; one runs doors in
 * real time.
 */
class SchedulesTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00.500Z");
    private static final Duration SECOND = Duration.ofSeconds(1);

    private static DataSource dataSource;
    private static QueueLocation queue;
    private final List<Schedules> opened = new ArrayList<>();

    @BeforeAll
    static void tables() throws SQLException {
        dataSource = TestDatabase.dataSource();
        queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("ticks");
        ScheduleSchema.drop(dataSource);
        ScheduleSchema.createIfMissing(dataSource);
    }

    @AfterEach
    void close() throws SQLException {
        opened.forEach(Schedules::close);
        TestDatabase.execute("DELETE FROM dbq_seq; DELETE FROM dbq_schedules");
    }

    @Test
    void severalSchedulersTakeEachTickOnce() throws Exception {
        TestClock clock = new TestClock(T0);
        List<Schedules> schedulers = List.of(scheduler(clock), scheduler(clock), scheduler(clock), scheduler(clock));
        Schedule everySecond = Schedule.cron("every-second", queue, "* * * * * *", ZoneOffset.UTC).withPayload("tick");
        schedulers.forEach(s -> s.define(everySecond));
        ExecutorService pool = Executors.newFixedThreadPool(schedulers.size());
        try {
            CyclicBarrier together = new CyclicBarrier(schedulers.size());
            List<Callable<Integer>> rounds = schedulers.stream().<Callable<Integer>>map(s -> () -> {
                together.await();
                return s.runDue();
            }).toList();
            for (int tick = 1; tick <= 300; tick++) {
                clock.advance(SECOND);
                int enqueued = 0;
                for (Future<Integer> round : pool.invokeAll(rounds)) {
                    enqueued += round.get();
                }
                assertEquals(1, enqueued, "tasks enqueued for tick " + tick + " by all schedulers");
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(300, tasks());
        assertEquals(T0.plusSeconds(301).minusMillis(500), state("every-second").nextDue());
    }

    @Test
    void aRestartRunsTheMissedTicksOnceWhenTheScheduleSaysSo() {
        assertEquals(1, ticksAfterRestart(MissedTicks.RUN_ONCE));
    }

    @Test
    void aRestartRunsEveryMissedTickWhenTheScheduleSaysSo() {
        assertEquals(10, ticksAfterRestart(MissedTicks.RUN_ALL));
    }

    /** One tick, ten missed while down, then what the restarted scheduler enqueues at once; it carries on after. */
    private int ticksAfterRestart(MissedTicks missed) {
        TestClock clock = new TestClock(T0);
        Schedule schedule = Schedule.every("restarted", queue, SECOND).withMissed(missed);
        Schedules before = scheduler(clock);
        before.define(schedule);
        clock.advance(SECOND);
        assertEquals(1, before.runDue());
        before.close();
        clock.advance(Duration.ofSeconds(10));
        Schedules after = scheduler(clock);
        after.define(schedule); // as a restarted process does: the same definition keeps the next tick
        int caughtUp = after.runDue();
        assertEquals(0, after.runDue());
        assertEquals(T0.plusSeconds(12).minusMillis(500), state("restarted").nextDue());
        clock.advance(SECOND);
        assertEquals(1, after.runDue());
        return caughtUp;
    }

    @Test
    void aNewTriggerMovesTheNextTick() {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        schedules.define(Schedule.every("moved", queue, SECOND));
        assertEquals(T0.plusMillis(500), state("moved").nextDue());
        schedules.define(Schedule.every("moved", queue, Duration.ofMinutes(1)).withPayload("new"));
        ScheduleState moved = state("moved");
        assertEquals(Instant.parse("2026-01-01T00:01:00Z"), moved.nextDue());
        assertEquals("new", moved.payload());
        assertEquals(Trigger.every(Duration.ofMinutes(1)), moved.trigger());
    }

    @Test
    void aPausedScheduleTakesNoTickUntilResumed() {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        schedules.define(Schedule.every("paused", queue, SECOND).withMissed(MissedTicks.RUN_ALL));
        assertTrue(schedules.pause("paused"));
        assertTrue(state("paused").paused());
        clock.advance(Duration.ofSeconds(3));
        assertEquals(0, schedules.runDue());
        schedules.define(Schedule.every("paused", queue, SECOND).withMissed(MissedTicks.RUN_ALL));
        assertTrue(state("paused").paused(), "a new definition keeps the pause");
        assertTrue(schedules.resume("paused"));
        assertEquals(3, schedules.runDue(), "the ticks that fell while paused, as RUN_ALL says");
    }

    /**
     * A definition with another trigger, made while a process takes the schedule's tick, waits for the take and
     * starts after it. It read its first tick from the clock before it waited: the tick just taken (01:00, in both
     * triggers), set again as the next, and enqueued twice.
     */
    @Test
    void aRedefinitionWaitingForATickBeingTakenStartsAfterIt() throws Exception {
        TestClock clock = new TestClock(T0);
        Schedules definer = scheduler(clock);
        definer.define(Schedule.cron("redefined", queue, "0 0 * * * *", ZoneOffset.UTC));
        clock.advance(Duration.ofMinutes(59).plusSeconds(59)); // 00:59:59.5, the 01:00 tick about to be taken
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection taker = dataSource.getConnection()) {
            taker.setAutoCommit(false);
            try (Statement lock = taker.createStatement()) {
                lock.executeQuery("SELECT 1 FROM dbq_schedules WHERE name = 'redefined' FOR UPDATE").close();
            }
            Future<?> redefinition = pool.submit(() -> definer.define(
                    Schedule.cron("redefined", queue, "0 0,30 * * * *", ZoneOffset.UTC)));
            Await.until(Duration.ofSeconds(30), "the definition waiting for the take", () -> TestDatabase.queryLong(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query LIKE '%dbq_schedules%'") == 1);
            clock.advance(Duration.ofSeconds(1)); // 01:00:00.5: the tick is taken, the next is 02:00
            Jdbc.update(taker, "UPDATE dbq_schedules SET next_due = '2026-01-01T02:00:00Z' WHERE name = 'redefined'");
            taker.commit();
            redefinition.get();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(Instant.parse("2026-01-01T01:30:00Z"), state("redefined").nextDue());
    }

    @Test
    void triggerNowEnqueuesATaskAndKeepsTheNextTick() throws SQLException {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        schedules.define(Schedule.every("triggered", queue, Duration.ofHours(1)).withPayload("now"));
        Instant next = state("triggered").nextDue();
        long id = schedules.triggerNow("triggered");
        assertEquals("now", TestDatabase.queryString("SELECT payload FROM dbq_seq WHERE id = " + id));
        assertEquals(next, state("triggered").nextDue());
        assertEquals(0, schedules.runDue());
    }

    @Test
    void listShowsEveryScheduleAndDeleteRemovesOne() throws SQLException {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        Schedule nightly = Schedule.cron("nightly", queue, "0 30 2 * * *", java.time.ZoneId.of("Europe/Paris"))
                .withPayload("{\"report\":\"daily\"}");
        schedules.define(nightly);
        schedules.define(Schedule.every("heartbeat", queue, SECOND));
        assertEquals(List.of(
                new ScheduleState("heartbeat", "dbq_seq", "ticks", "", Trigger.every(SECOND), MissedTicks.RUN_ONCE,
                        T0.plusMillis(500), false),
                new ScheduleState("nightly", "dbq_seq", "ticks", "{\"report\":\"daily\"}", nightly.trigger(),
                        MissedTicks.RUN_ONCE, Instant.parse("2026-01-01T01:30:00Z"), false)), schedules.list());
        assertTrue(schedules.delete("heartbeat"));
        assertFalse(schedules.delete("heartbeat"));
        assertFalse(schedules.pause("heartbeat"));
        assertEquals(List.of("nightly"), schedules.list().stream().map(ScheduleState::name).toList());
        clock.advance(Duration.ofSeconds(5));
        assertEquals(0, schedules.runDue());
        assertEquals(0, tasks());
        assertThrows(IllegalArgumentException.class, () -> schedules.triggerNow("heartbeat"));
    }

    @Test
    void aScheduleDefinedElsewhereIsListedButNotTakenHere() {
        TestClock clock = new TestClock(T0);
        scheduler(clock).define(Schedule.every("elsewhere", queue, SECOND));
        Schedules here = scheduler(clock);
        clock.advance(SECOND);
        assertEquals(0, here.runDue());
        assertEquals(List.of("elsewhere"), here.list().stream().map(ScheduleState::name).toList());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> here.triggerNow("elsewhere")).getMessage()
                .contains("not defined in this process"));
    }

    /** During a deploy that moves a schedule to another queue, a process still defining the old one skips it. */
    @Test
    void aScheduleRedefinedIntoAnotherQueueIsLeftToTheProcessesThatDefineItSo() {
        TestClock clock = new TestClock(T0);
        Schedules old = scheduler(clock);
        Schedules moved = scheduler(clock);
        old.define(Schedule.every("moving", queue, SECOND));
        moved.define(Schedule.every("moving", queue.table().queue("elsewhere"), SECOND));
        clock.advance(SECOND);
        Instant before = clock.instant();
        assertEquals(0, old.runDue());
        assertEquals(null, old.earliestDueAfter(before), "a tick it left due is not one to wait for");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> old.triggerNow("moving")).getMessage()
                .contains("its row into dbq_seq/elsewhere"), "nor is it triggered there");
        assertEquals(1, moved.runDue());
        assertEquals(T0.plusSeconds(2).minusMillis(500), old.earliestDueAfter(before));
    }

    @Test
    void aScheduleWhoseEnqueueFailsIsLeftDueAndTheOthersAreTaken() throws SQLException {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        QueueLocation missing = new QueueTable("no_such_table", Layout.DBQ_SEQ).queue("ticks");
        schedules.define(Schedule.every("broken", missing, SECOND));               // due first, at 00:00:01
        schedules.define(Schedule.every("working", queue, Duration.ofSeconds(2))); // due at 00:00:02
        clock.advance(Duration.ofSeconds(2));
        assertEquals(1, schedules.runDue());
        assertEquals(1, tasks());
        assertEquals(T0.plusMillis(500), state("broken").nextDue(), "still due");
    }

    @Test
    void aLongCatchUpTakesTurnsWithTheOtherSchedules() throws SQLException {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        schedules.define(Schedule.every("behind", queue, SECOND).withMissed(MissedTicks.RUN_ALL).withPayload("behind"));
        clock.advance(Duration.ofSeconds(2440));
        schedules.define(Schedule.every("other", queue, Duration.ofMinutes(1)).withPayload("other")); // due at 00:41
        clock.advance(Duration.ofSeconds(60));
        // "behind": 2,500 ticks due from 00:00:01, three rounds of at most 1,000, each leaving it more overdue than "other"
        assertEquals(2501, schedules.runDue());
        assertEquals(Schedules.MAX_TICKS_PER_ROUND, TestDatabase.queryLong("SELECT count(*) FROM dbq_seq"
                + " WHERE queue_name = 'ticks' AND id < (SELECT id FROM dbq_seq WHERE payload = 'other')"),
                "the other schedule's tick comes right after the first round of the catch-up, not after all of it");
    }

    @Test
    void closingStopsACatchUpAfterTheRoundInProgress() throws SQLException {
        TestClock clock = new TestClock(T0);
        AtomicReference<Schedules> closedOnFirstEnqueue = new AtomicReference<>();
        Schedules schedules = new Schedules(dataSource, Transactions.JDBC, q -> new QueueProducer(dataSource, q,
                new QueueListener() {
                    @Override
                    public void enqueued(QueueLocation q, int count) {
                        closedOnFirstEnqueue.get().close();
                    }
                }), clock);
        closedOnFirstEnqueue.set(schedules);
        opened.add(schedules);
        schedules.define(Schedule.every("behind", queue, SECOND).withMissed(MissedTicks.RUN_ALL));
        clock.advance(Duration.ofSeconds(2500));
        assertEquals(Schedules.MAX_TICKS_PER_ROUND, schedules.runDue());
        assertEquals(Schedules.MAX_TICKS_PER_ROUND, tasks());
    }

    @Test
    void aRowThisProcessCannotReadIsLeftDueAndTheOthersAreTaken() throws SQLException {
        TestClock clock = new TestClock(T0);
        Schedules schedules = scheduler(clock);
        schedules.define(Schedule.cron("elsewhere", queue, "* * * * * *", ZoneOffset.UTC));
        schedules.define(Schedule.every("working", queue, Duration.ofSeconds(2)));
        // as a process whose time-zone database knows a zone this one does not would write it
        TestDatabase.execute("UPDATE dbq_schedules SET zone = 'America/Nowhere_New' WHERE name = 'elsewhere'");
        clock.advance(Duration.ofSeconds(2));
        assertEquals(1, schedules.runDue());
        assertEquals(1, tasks());
        UnreadableScheduleException e = assertThrows(UnreadableScheduleException.class, schedules::list);
        assertEquals("elsewhere", e.name());
        assertTrue(e.getMessage().startsWith("schedule 'elsewhere' cannot be read here: "), e.getMessage());
        List<UnreadableScheduleException> unreadable = new ArrayList<>();
        assertEquals(List.of("working"), schedules.list(unreadable::add).stream().map(ScheduleState::name).toList());
        assertEquals(List.of("elsewhere"), unreadable.stream().map(UnreadableScheduleException::name).toList());
    }

    @Test
    void badDefinitionsFailNamingTheField() {
        assertEquals("name", assertThrows(InvalidValueException.class,
                () -> Schedule.every("no spaces", queue, SECOND)).field());
        assertEquals("payload", assertThrows(InvalidValueException.class,
                () -> Schedule.every("ok", queue, SECOND).withPayload("a\0b")).field());
        assertEquals("cron", assertThrows(InvalidValueException.class,
                () -> Schedule.cron("ok", queue, "* * *", ZoneOffset.UTC)).field());
        assertThrows(IllegalArgumentException.class, () -> scheduler(Clock.systemUTC()).pause(""));
    }

    /**
     * Three doors, each running its schedules' thread on the system clock, share a schedule every
     * 20 ms until it has ticked 300 times: the tasks are exactly the ticks between the first due and
     * the next due once all are closed, and the doors' producers enqueued that many between them.
     */
    @Test
    void severalDoorsInRealTimeEnqueueEveryTickOnce() throws Exception {
        Duration interval = Duration.ofMillis(20);
        Schedule fast = Schedule.every("fast", queue, interval).withMissed(MissedTicks.RUN_ALL);
        scheduler(Clock.systemUTC()).define(fast); // the row, before any door takes a tick
        Instant firstDue = state("fast").nextDue();
        AtomicLong reported = new AtomicLong();
        QueueListener counting = new QueueListener() {
            @Override
            public void enqueued(QueueLocation q, int count) {
                reported.addAndGet(count);
            }
        };
        List<DbQueue> doors = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                DbQueue door = DbQueue.builder(dataSource).listener(counting).build();
                doors.add(door);
                door.schedules().define(fast);
            }
            Await.until(Duration.ofSeconds(30), "300 ticks", () -> tasks() >= 300);
        } finally {
            doors.forEach(DbQueue::close);
        }
        long ticks = Duration.between(firstDue, state("fast").nextDue()).toMillis() / interval.toMillis();
        assertEquals(ticks, tasks(), "one task per tick from the first due to the next");
        assertEquals(ticks, reported.get(), "enqueues the doors' producers reported");
    }

    /** A consumer that polls every 10 minutes takes the ticks' tasks: a tick's enqueue wakes it, as any enqueue does. */
    @Test
    void aTickWakesAListeningConsumer() throws Exception {
        PollSettings rarePoll = PollSettings.DEFAULT.withTimeouts(Duration.ZERO, Duration.ofMinutes(10), SECOND);
        AtomicLong handled = new AtomicLong();
        try (DbQueue door = DbQueue.builder(dataSource).build()) {
            door.consume(QueueConfig.of(queue).withPoll(rarePoll).withWakeup(Wakeup.NOTIFY),
                    batch -> handled.addAndGet(batch.tasks().size()));
            Await.until(Duration.ofSeconds(30), "the consumer listens", door::isListening);
            door.schedules().define(Schedule.every("wakes", queue, Duration.ofMillis(200)));
            Await.until(Duration.ofSeconds(30), "three ticks handled", () -> handled.get() >= 3);
        }
    }

    private Schedules scheduler(Clock clock) {
        Schedules schedules = new Schedules(dataSource, Transactions.JDBC, q -> new QueueProducer(dataSource, q), clock);
        opened.add(schedules);
        return schedules;
    }

    private ScheduleState state(String name) {
        return scheduler(Clock.systemUTC()).list().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow();
    }

    private static long tasks() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM dbq_seq WHERE queue_name = 'ticks'");
    }
}
