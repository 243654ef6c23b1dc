package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Makes workers observe the queues an operator paused ({@link QueueAdmin#pause}), in whichever process: it reads the
 * pauses table of each of their tables every {@link #DEFAULT_INTERVAL} (one short query per table) and tells each
 * {@link QueueWorkers} which of its queues to leave alone ({@link QueueWorkers#heldQueues}). A table whose pauses
 * cannot be read (a table created before pauses existed, a database outage) keeps its last state and is logged once.
 */
public final class PauseWatch implements AutoCloseable {

    /** Half a second, so that a pause or resume reaches every worker within a second. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(500);

    private static final Logger LOG = LoggerFactory.getLogger(PauseWatch.class);

    private final DataSource dataSource;
    private final List<QueueWorkers> workers = new CopyOnWriteArrayList<>();
    private final Map<QueueTable, QueueSql> statements = new ConcurrentHashMap<>();
    private final Set<QueueTable> unreadable = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService scheduler =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-pauses"));

    private PauseWatch(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Starts reading the pauses of the tables of the workers {@link #add}ed, every {@code interval}. */
    public static PauseWatch start(DataSource dataSource, Duration interval) {
        Checks.positive("interval", interval);
        PauseWatch watch = new PauseWatch(dataSource);
        watch.scheduler.scheduleWithFixedDelay(watch::check, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return watch;
    }

    /** Watches {@code started}'s queues from now on; reads their pauses at once, so a paused queue stays paused. */
    public void add(QueueWorkers started) {
        workers.add(Objects.requireNonNull(started, "started"));
        check(List.of(started));
    }

    private void check() {
        workers.removeIf(w -> !w.isRunning()); // shut down on their own, not with the door: nothing to hold
        check(workers);
    }

    private void check(List<QueueWorkers> watched) {
        Set<QueueTable> tables = new HashSet<>();
        watched.forEach(w -> w.locations().forEach(q -> tables.add(q.table())));
        for (QueueTable table : tables) {
            Set<QueueLocation> paused = pausedQueues(table);
            if (paused != null) {
                watched.stream().filter(w -> w.locations().get(0).table().equals(table))
                        .forEach(w -> w.hold(paused));
            }
        }
    }

    /** The paused queues of {@code table}, or null when they cannot be read. */
    private Set<QueueLocation> pausedQueues(QueueTable table) {
        QueueSql sql = statements.computeIfAbsent(table, QueueSql::new);
        try {
            Set<QueueLocation> paused = Jdbc.autoCommitted(dataSource, "read the pauses of " + table.name(), c -> {
                Set<QueueLocation> names = new HashSet<>();
                try (PreparedStatement ps = c.prepareStatement(sql.pausedQueues); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        names.add(table.queue(rs.getString(1)));
                    }
                }
                return names;
            });
            if (unreadable.remove(table)) {
                LOG.info("{}: pauses readable again", table.pausesTable());
            }
            return paused;
        } catch (RuntimeException e) {
            if (unreadable.add(table)) {
                LOG.warn("{}: cannot read the paused queues, keeping the last state until it can"
                        + " (Schema.createIfMissing adds the table to an older schema): {}", table.pausesTable(),
                        e.getMessage());
            }
            return null;
        }
    }

    /** Stops reading; the workers keep the state last read. */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
