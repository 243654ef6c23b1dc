package io.dbqueue.serverwatch;

import io.dbqueue.common.Checks;
import io.dbqueue.common.QueueException;
import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.serverwatch.VacuumReport.TableVacuum;
import io.dbqueue.serverwatch.VacuumStatistics.TableStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reports queue tables whose vacuum is blocked: a long transaction, a session idle in transaction, an
 * abandoned replication slot or a forgotten prepared transaction holds the database's xmin horizon,
 * so VACUUM cannot remove the rows the queue deletes, and every claim walks ever more dead index
 * entries. This is how PostgreSQL queues collapse; the cure is to end the holder.
 *
 * <p>{@link #check()} reads the oldest horizon holder and each table's dead tuples and judges them
 * with {@link VacuumThresholds}. While a table is blocked it logs one WARN per holder, e.g.
 * <pre>queue table orders: vacuum blocked, 12000 dead tuples cannot be removed; the xmin horizon is 75.2 s
 * and 5400 transactions old, held by session pid 4711 (user app, application 'psql', idle in transaction,
 * transaction since 2025-05-01T10:00:00Z, last query since 2025-05-01T10:00:01Z)</pre>
 * and an INFO when it clears, and tells the {@link VacuumListener}. {@link #start} repeats the check on
 * a daemon thread (logger {@code io.dbqueue.serverwatch.VacuumWatch}).
 */
public final class VacuumWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VacuumWatch.class);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);

    private final DataSource dataSource;
    private final List<String> tables;
    private final VacuumThresholds thresholds;
    private final VacuumAlerts alerts;
    private final Object checking = new Object();
    private volatile VacuumReport latest;
    private ScheduledExecutorService scheduler;
    private boolean failing;

    /** Watches {@code tables} with the {@link VacuumThresholds#DEFAULT default thresholds}, logging only. */
    public VacuumWatch(DataSource dataSource, Collection<QueueTable> tables) {
        this(dataSource, tables, VacuumThresholds.DEFAULT, List.of());
    }

    /**
     * Watches {@code tables} (several queues may share one; it is checked once), telling {@code listeners}
     * in order; one that throws is logged and does not stop the others.
     */
    public VacuumWatch(DataSource dataSource, Collection<QueueTable> tables, VacuumThresholds thresholds,
                       List<? extends VacuumListener> listeners) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        Set<String> names = new LinkedHashSet<>();
        tables.forEach(t -> names.add(t.name()));
        this.tables = List.copyOf(names);
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
        this.alerts = new VacuumAlerts(List.copyOf(listeners));
    }

    /** The watched tables' names, each once. */
    public List<String> tables() {
        return tables;
    }

    public VacuumThresholds thresholds() {
        return thresholds;
    }

    /**
     * Checks now: reads the horizon and the tables' statistics, logs and notifies as described above.
     *
     * @throws QueueException when the database cannot be read
     */
    public VacuumReport check() {
        synchronized (checking) {
            VacuumReport report;
            try {
                report = Jdbc.autoCommitted(dataSource, "check vacuum of " + tables, c -> {
                    Optional<HorizonHolder> horizon = VacuumStatistics.oldestHolder(c);
                    List<TableStatistics> statistics = VacuumStatistics.tables(c, tables);
                    return new VacuumReport(Instant.now(), horizon, statistics.stream()
                            .map(s -> new TableVacuum(s.table(), s.deadTuples(), s.liveTuples(), s.totalBytes(),
                                    s.lastVacuum(), s.lastAutovacuum(), thresholds.blocked(horizon, s.deadTuples())))
                            .toList());
                });
            } catch (QueueException e) {
                latest = null;
                throw e;
            }
            latest = report;
            alerts.update(report);
            return report;
        }
    }

    /** The latest check's report; empty before the first check and after a failed one. */
    public Optional<VacuumReport> latest() {
        return Optional.ofNullable(latest);
    }

    /** Checks every {@link #DEFAULT_INTERVAL} on a daemon thread, starting now. */
    public VacuumWatch start() {
        return start(DEFAULT_INTERVAL);
    }

    /** Checks every {@code interval} on a daemon thread, starting now; a failed check is logged and retried. */
    public synchronized VacuumWatch start(Duration interval) {
        Checks.positive("interval", interval);
        if (scheduler != null) {
            throw new IllegalStateException("vacuum watch already started");
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dbq-vacuum-watch"));
        scheduler.scheduleWithFixedDelay(this::checkLogged, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
        return this;
    }

    private void checkLogged() {
        try {
            check();
            if (failing) {
                LOG.info("vacuum watch: checking {} works again", tables);
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("vacuum watch: check of {} failed, retrying: {}", tables, e.getMessage());
                failing = true;
            } else {
                LOG.debug("vacuum watch: check of {} failed again: {}", tables, e.getMessage());
            }
        }
    }

    /** Stops the periodic checks, waiting up to 5 seconds for one in progress. */
    @Override
    public synchronized void close() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
