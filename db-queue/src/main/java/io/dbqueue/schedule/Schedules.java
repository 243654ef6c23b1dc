package io.dbqueue.schedule;

import io.dbqueue.common.Identifiers;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Recurring tasks ({@link Schedule}s) on one database. Each schedule is a row of {@code dbq_schedules}
 * holding its next due tick; a process takes a due tick by locking the row ({@code FOR UPDATE SKIP
 * LOCKED}), and in that same transaction enqueues the tick's task and moves the row to the next tick.
 * So each tick is enqueued once however many processes run the schedule, and none is lost to a crash:
 * a transaction that does not commit leaves the tick due for the next process to look.
 *
 * <p>A process takes the ticks of the schedules it {@link #define defined} (it holds their queues'
 * producers); it looks when the earliest of them is due, and at least every check interval. The
 * others ({@link #list}, {@link #pause}, {@link #resume}, {@link #delete}) act on any schedule in the
 * database. Ticks missed while no process ran a schedule, or while it was paused, are enqueued as its
 * {@link MissedTicks} says when a process next looks. Thread-safe.
 */
public final class Schedules implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Schedules.class);

    /** At most this many ticks of one schedule are enqueued in one transaction; more follow in the next. */
    static final int MAX_TICKS_PER_ROUND = 1000;

    /** A schedule this process defined, and the producer of its queue. */
    private record Defined(Schedule schedule, QueueProducer producer) {
    }

    private final DataSource dataSource;
    private final Transactions transactions;
    private final Function<QueueLocation, QueueProducer> producers;
    private final Clock clock;
    private final Map<String, Defined> defined = new ConcurrentHashMap<>();
    private volatile ScheduleTimer timer; // null until started
    private volatile boolean closing;

    Schedules(DataSource dataSource, Transactions transactions, Function<QueueLocation, QueueProducer> producers,
              Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.producers = Objects.requireNonNull(producers, "producers");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Creates {@code dbq_schedules} if it is missing and starts the thread that takes due ticks, at the
     * earliest one's time and at least every {@code checkInterval}. Ticks are enqueued, in transactions
     * of {@code transactions}, by the producers {@code producers} makes for the schedules' queues;
     * {@code clock} tells when a tick is due.
     */
    public static Schedules start(DataSource dataSource, Transactions transactions,
                                  Function<QueueLocation, QueueProducer> producers, Clock clock,
                                  Duration checkInterval) {
        Schedules schedules = new Schedules(dataSource, transactions, producers, clock);
        ScheduleSchema.createIfMissing(dataSource);
        schedules.timer = ScheduleTimer.start(schedules, clock, checkInterval);
        return schedules;
    }

    /**
     * Stores {@code schedule}, or its new definition, and takes its ticks from now on. Its first tick
     * is the trigger's next after now; a new definition keeps the schedule's next tick, and whether it
     * is paused, unless its trigger changed. Every process that defines a schedule should define it alike.
     */
    public void define(Schedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        QueueProducer producer = producers.apply(schedule.queue());
        inTransaction("define schedule " + schedule.name(), c -> {
            // the row first, then the clock: a tick being taken is waited for, and a changed trigger's first tick is
            // the next after it (read before, it could be that very tick, enqueued again)
            ScheduleRows.lockForUpdate(c, schedule.name());
            ScheduleRows.upsert(c, schedule, schedule.trigger().next(clock.instant()));
            return null;
        });
        defined.put(schedule.name(), new Defined(schedule, producer));
        wake();
    }

    /**
     * Every schedule in the database, by name.
     *
     * @throws UnreadableScheduleException naming the first row this process cannot read ({@link #list(Consumer)}
     *                                     lists the others)
     */
    public List<ScheduleState> list() {
        return list(unreadable -> {
            throw unreadable;
        });
    }

    /** Every schedule in the database that this process can read, by name; each row it cannot goes to {@code unreadable}. */
    public List<ScheduleState> list(Consumer<UnreadableScheduleException> unreadable) {
        return stored(dataSource, unreadable);
    }

    /**
     * As {@link #list(Consumer)}, read from {@code dataSource} without starting anything: an operator's look, which
     * neither creates {@code dbq_schedules} nor takes ticks. None while the table does not exist.
     */
    public static List<ScheduleState> stored(DataSource dataSource, Consumer<UnreadableScheduleException> unreadable) {
        return Jdbc.autoCommitted(dataSource, "list schedules", c -> Jdbc.tableVisible(c, ScheduleSchema.TABLE)
                ? ScheduleRows.list(c, unreadable) : List.of());
    }

    /** Stops taking the schedule's ticks until it is {@link #resume resumed}; false if there is no such schedule. */
    public boolean pause(String name) {
        return setPausedStored(dataSource, name, true);
    }

    /**
     * Takes the schedule's ticks again; those that fell while it was paused are enqueued as its
     * {@link MissedTicks} says. False if there is no such schedule.
     */
    public boolean resume(String name) {
        boolean resumed = setPausedStored(dataSource, name, false);
        wake();
        return resumed;
    }

    /**
     * Enqueues one task of the schedule now, beside its ticks (its next tick stays as it was), and
     * returns the task's id. The schedule must be defined in this process, which holds its producer.
     */
    public long triggerNow(String name) {
        Identifiers.scheduleName(name);
        Defined local = defined.get(name);
        if (local == null) {
            throw new IllegalArgumentException("schedule '" + name + "' is not defined in this process: trigger it"
                    + " where it is defined");
        }
        return inTransaction("trigger schedule " + name, c -> {
            ScheduleState row = ScheduleRows.lock(c, name);
            if (row == null) {
                throw new IllegalArgumentException("no schedule named '" + name + "'");
            }
            String elsewhere = otherQueue(local, row);
            if (elsewhere != null) {
                throw new IllegalArgumentException("schedule '" + name + "': " + elsewhere
                        + "; trigger it where it is defined as stored");
            }
            return local.producer().enqueue(c, row.payload());
        });
    }

    /** Deletes the schedule, in every process; false if there was none of that name. */
    public boolean delete(String name) {
        defined.remove(Identifiers.scheduleName(name));
        return deleteStored(dataSource, name);
    }

    /**
     * Pauses or resumes schedule {@code name} as stored, without starting anything here (an operator's tool, the
     * starter's endpoint): the processes that take its ticks see it at their next check. False if there is none,
     * or no {@code dbq_schedules} table.
     */
    public static boolean setPausedStored(DataSource dataSource, String name, boolean paused) {
        Identifiers.scheduleName(name);
        return Jdbc.autoCommitted(dataSource, (paused ? "pause" : "resume") + " schedule " + name,
                c -> Jdbc.tableVisible(c, ScheduleSchema.TABLE) && ScheduleRows.setPaused(c, name, paused));
    }

    /** Deletes schedule {@code name} as stored, as {@link #setPausedStored} changes it. */
    public static boolean deleteStored(DataSource dataSource, String name) {
        Identifiers.scheduleName(name);
        return Jdbc.autoCommitted(dataSource, "delete schedule " + name,
                c -> Jdbc.tableVisible(c, ScheduleSchema.TABLE) && ScheduleRows.delete(c, name));
    }

    /** Stops taking ticks; a tick being enqueued is committed or rolled back first. */
    @Override
    public void close() {
        closing = true;
        if (timer != null) {
            timer.close();
        }
    }

    /**
     * Takes every due tick of the schedules defined here that no other process is taking, a schedule
     * per transaction, until none is due or this is {@linkplain #close closing}; returns how many tasks
     * were enqueued. A schedule that is {@link #MAX_TICKS_PER_ROUND} ticks or more behind takes them
     * in turns with the others, so that its catch-up does not hold their ticks back. A schedule whose
     * row cannot be read here or whose enqueue fails is left due (and logged) for the next round, and
     * the others are taken.
     */
    int runDue() {
        Set<String> names = Set.copyOf(defined.keySet());
        if (names.isEmpty()) {
            return 0;
        }
        Set<String> passedOver = new HashSet<>(); // left due this call, and those behind
        Set<String> behind = new HashSet<>(); // took a round of ticks and has more: waits for the others' turn
        int enqueued = 0;
        while (!closing) {
            // in microseconds, as the server keeps times: pgjdbc rounds a bound instant to the nearest microsecond,
            // so a clock up to 0.5 us before a tick made the claim find it due and the ticks' count find none
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            AtomicReference<String> claimed = new AtomicReference<>();
            Taken taken;
            try {
                taken = inTransaction("take a due schedule tick", c -> takeOne(c, names, passedOver, now, claimed));
            } catch (UnreadableScheduleException e) {
                taken = new Taken(e.name(), 0, false, e.getMessage());
            } catch (RuntimeException e) {
                if (claimed.get() == null) {
                    LOG.warn("looking for due schedule ticks failed: {}", e.toString());
                    return enqueued;
                }
                taken = new Taken(claimed.get(), 0, false, "enqueueing its tick failed: " + e);
            }
            if (taken == null) {
                if (behind.isEmpty()) {
                    return enqueued;
                }
                passedOver.removeAll(behind); // every other due schedule had its turn
                behind.clear();
                continue;
            }
            if (taken.skippedBecause() != null) {
                LOG.warn("schedule '{}' left due: {}", taken.name(), taken.skippedBecause());
                passedOver.add(taken.name());
            } else if (taken.more()) {
                behind.add(taken.name());
                passedOver.add(taken.name());
            }
            enqueued += taken.enqueued();
        }
        return enqueued;
    }

    /**
     * In {@code c}'s transaction: locks the most overdue schedule due at {@code now} (naming it in
     * {@code claimed}), enqueues its due ticks' tasks and moves it to its next tick; null if none is due.
     */
    private Taken takeOne(Connection c, Set<String> names, Set<String> skipped, Instant now,
                          AtomicReference<String> claimed) throws SQLException {
        ScheduleState row = ScheduleRows.claimDue(c, names, skipped, now);
        if (row == null) {
            return null;
        }
        claimed.set(row.name());
        Defined local = defined.get(row.name());
        if (local == null) {
            return new Taken(row.name(), 0, false, "it is no longer defined here");
        }
        String elsewhere = otherQueue(local, row);
        if (elsewhere != null) {
            return new Taken(row.name(), 0, false, elsewhere);
        }
        DueTicks due = DueTicks.at(now, row.nextDue(), row.trigger(), row.missed(), MAX_TICKS_PER_ROUND);
        List<String> payloads = Collections.nCopies(due.ticks().size(), row.payload());
        local.producer().enqueueAll(c, payloads, Duration.ZERO);
        ScheduleRows.advance(c, row.name(), due.nextDue());
        return new Taken(row.name(), payloads.size(), !due.nextDue().isAfter(now), null);
    }

    /**
     * Why this process must not enqueue {@code row}'s tasks: during a deploy that moves a schedule to another queue,
     * its definition here names another queue than the stored one. Null when they agree.
     */
    private static String otherQueue(Defined local, ScheduleState row) {
        QueueLocation queue = local.schedule().queue();
        if (queue.table().name().equals(row.queueTable()) && queue.queueName().equals(row.queueName())) {
            return null;
        }
        return "it is defined here into " + queue + ", its row into " + row.queueTable() + "/" + row.queueName();
    }

    /** What one transaction of {@link #runDue} did; {@code more}: the schedule is still due (a catch-up's next round). */
    private record Taken(String name, int enqueued, boolean more, String skippedBecause) {
    }

    /**
     * The earliest next tick after {@code after} of the unpaused schedules defined here, or null. A tick
     * due earlier that a {@link #runDue} since then left due is not one to wait for: another process
     * holds it (and moves it on), or it cannot be enqueued here; the check interval looks at it again.
     */
    Instant earliestDueAfter(Instant after) {
        Set<String> names = Set.copyOf(defined.keySet());
        if (names.isEmpty()) {
            return null;
        }
        return Jdbc.autoCommitted(dataSource, "read the next schedule tick",
                c -> ScheduleRows.earliestDueAfter(c, names, after));
    }

    private void wake() {
        if (timer != null) {
            timer.wake();
        }
    }

    private <T> T inTransaction(String what, Transactions.Work<T> work) {
        try {
            return transactions.inNewTransaction(dataSource, work);
        } catch (SQLException e) {
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueueException(what + " was interrupted", e);
        }
    }
}
