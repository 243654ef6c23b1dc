package io.dbqueue.bench.run;

import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.driver.Shard;
import io.dbqueue.bench.driver.StopSignal;
import io.dbqueue.bench.metrics.ClientProbe;
import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.bench.workload.LabLayout;
import io.dbqueue.queue.QueueLocation;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Runs every cell of a workload's matrix, each repetition from the same fresh table, until done or stopped. */
public final class MatrixRunner {

    public static final String QUEUE_NAME = "bench";
    /**
     * How long the first in-process cell runs, uncounted, before the first round; see {@link #warmUpJvm}. 10 s; the
     * lab's own tests, whose runs last a second, set less with the system property {@code dbq.bench.jvm-warmup-ms}.
     */
    static final Duration JVM_WARMUP = Duration.ofMillis(Long.getLong("dbq.bench.jvm-warmup-ms", 10_000));

    private final PostgresServer server;
    private final DataSource admin;
    private final Map<DriverName, Driver> drivers;
    private final StopSignal stop;
    private final PrintStream log;
    private final TablePreparer preparer;
    private final ServerProbe serverProbe;
    private final ClientProbe clientProbe = new ClientProbe();
    private final List<Shard> shards;
    private final List<TablePreparer> shardPreparers;
    private final Map<DriverName, Optional<String>> unavailable = new EnumMap<>(DriverName.class);
    private boolean jvmWarmUp = true;

    /** A runner for one server and set of drivers; it asks each driver once whether it can run, for every matrix. */
    public MatrixRunner(PostgresServer server, DataSource admin, Map<DriverName, Driver> drivers, StopSignal stop,
                        PrintStream log) throws SQLException {
        this(server, admin, drivers, stop, log, List.of());
    }

    /**
     * A runner whose sharded cells spread their queues over {@code shards} (the first of them on
     * {@code server}); every repetition starts from a checkpoint on each of them.
     */
    public MatrixRunner(PostgresServer server, DataSource admin, Map<DriverName, Driver> drivers, StopSignal stop,
                        PrintStream log, List<Shard> shards) throws SQLException {
        this.server = server;
        this.admin = admin;
        this.drivers = drivers;
        this.stop = stop;
        this.log = log;
        this.preparer = new TablePreparer(admin, log);
        this.serverProbe = new ServerProbe(admin);
        this.shards = shards;
        this.shardPreparers = shards.stream().map(shard -> new TablePreparer(shard.admin(), log)).toList();
    }

    /** Skips the JVM warm-up: for a caller that warms its drivers up itself and runs many small matrices. */
    public MatrixRunner withoutJvmWarmUp() {
        jvmWarmUp = false;
        return this;
    }

    /** Why {@code driver} cannot run on this machine, asked once per runner; empty when it can. */
    public Optional<String> unavailableReason(DriverName driver) {
        return unavailable.computeIfAbsent(driver, d -> Optional.ofNullable(drivers.get(d).unavailableReason()));
    }

    /** The server {@code driver} measures as it names itself, once {@link #unavailableReason} found it reachable. */
    public Optional<String> server(DriverName driver) {
        return unavailableReason(driver).isPresent() ? Optional.empty() : Optional.ofNullable(drivers.get(driver).server());
    }

    /** What was measured and what was not. */
    public record Outcome(List<CellResult> runs, List<NotMeasured> notMeasured, boolean interrupted) {
    }

    /**
     * Runs the matrix in rounds: each round runs every cell once, in the matrix's order, so that a
     * cell's repetitions are spread over the whole run and a drift in the machine's speed (this
     * machine's storage moves by tens of percent within minutes) reaches every cell alike, instead
     * of favouring the cells that ran in a fast stretch. A cell that fails is not run again.
     */
    public Outcome run(Workload workload, Progress progress) {
        Map<Cell, List<Repetition>> repetitions = new LinkedHashMap<>();
        Map<Cell, String> failures = new LinkedHashMap<>();
        List<NotMeasured> notMeasured = new ArrayList<>();
        List<Cell> runnable = new ArrayList<>();
        for (Cell cell : workload.cells()) {
            Optional<String> reason = unavailableReason(cell.driver());
            if (reason.isPresent()) {
                progress.skipped(cell, workload.repeat(), reason.get());
                notMeasured.add(NotMeasured.of(cell, "skipped", reason.get()));
            } else {
                runnable.add(cell);
                repetitions.put(cell, new ArrayList<>());
            }
        }
        if (jvmWarmUp) {
            runnable.stream().filter(cell -> drivers.get(cell.driver()).runsInThisJvm()).findFirst()
                    .ifPresent(cell -> warmUpJvm(workload, cell));
        }
        for (Scheduled next : schedule(runnable, workload.repeat())) {
            if (stop.isStopped()) {
                break;
            }
            if (!failures.containsKey(next.cell())) {
                String failure = runOnce(workload, progress, next.cell(), next.round(),
                        repetitions.get(next.cell()));
                if (failure != null) {
                    failures.put(next.cell(), failure);
                }
            }
        }
        return outcome(repetitions, failures, notMeasured);
    }

    /** One repetition to run: the cell and which round it belongs to (1-based). */
    record Scheduled(Cell cell, int round) {
    }

    /** The order of the repetitions: round 1 of every cell in the given order, then round 2, and so on. */
    static List<Scheduled> schedule(List<Cell> cells, int repeat) {
        List<Scheduled> order = new ArrayList<>(cells.size() * repeat);
        for (int round = 1; round <= repeat; round++) {
            for (Cell cell : cells) {
                order.add(new Scheduled(cell, round));
            }
        }
        return order;
    }

    private Outcome outcome(Map<Cell, List<Repetition>> repetitions, Map<Cell, String> failures,
                            List<NotMeasured> notMeasured) {
        List<CellResult> runs = new ArrayList<>();
        repetitions.forEach((cell, done) -> {
            if (!done.isEmpty()) {
                runs.add(CellResult.of(cell, done));
            }
        });
        failures.forEach((cell, message) -> notMeasured.add(NotMeasured.of(cell, "failed", message)));
        return new Outcome(runs, notMeasured, stop.isStopped());
    }

    /**
     * Runs {@code cell} once for {@link #JVM_WARMUP}, not counted, before the first round: the JIT
     * compiler would otherwise still be compiling the library's hot paths (and taking CPU from the
     * server on a small machine) during the first repetitions of the in-process drivers, which
     * pgbench, a compiled program in a process of its own, is spared. A long-running service, the
     * library's real home, runs warm.
     */
    private void warmUpJvm(Workload workload, Cell cell) {
        Workload cellWorkload = workload.forCell(cell);
        long backlog = cellWorkload.producers() == 0 ? cellWorkload.backlog() : 0; // dequeue alone needs one
        Workload warmup = cellWorkload.toBuilder().warmup(Duration.ZERO).duration(JVM_WARMUP).messages(0)
                .backlog(backlog).build();
        log.println("bench: warming up the JVM: " + cell + " for " + JVM_WARMUP.toSeconds() + " s, not counted");
        try {
            drivers.get(cell.driver()).run(prepare(cell, warmup, backlog));
        } catch (Exception e) {
            if (!stop.isStopped()) {
                log.println("bench: the JVM warm-up failed (" + oneLine(e) + "); the cells run all the same");
            }
        }
    }

    /**
     * The cell's fresh table with {@code backlog} messages (on each of its shards for a sharded cell), and a
     * checkpoint on every server: a brokers' repetition starts from one too, and no shard flushes an earlier
     * cell's pages during this one.
     */
    private CellContext prepare(Cell cell, Workload workload, long backlog) throws SQLException {
        QueueLocation location = location(cell);
        int count = cell.driver().shards();
        if (count > shards.size()) {
            throw new IllegalArgumentException(cell.driver() + " needs --shards " + count + " or more");
        }
        if (location != null && count == 0) {
            preparer.prepare(location, backlog, workload.messageSize(), workload.priorities(), cell.batchSize());
        } else if (count == 0) {
            preparer.checkpoint();
        }
        for (int i = 0; i < shardPreparers.size(); i++) {
            if (i < count) {
                shardPreparers.get(i).prepare(location, backlog, workload.messageSize(), workload.priorities(),
                        cell.batchSize());
            } else if (i > 0 || count > 0) {
                shardPreparers.get(i).checkpoint();
            }
        }
        return new CellContext(cell, workload, location, server, admin, serverProbe, clientProbe, stop,
                shards.subList(0, count));
    }

    private static QueueLocation location(Cell cell) {
        return cell.usesTable() ? LabLayout.table(cell.layout()).queue(QUEUE_NAME) : null;
    }

    /** Runs repetition {@code round} of the cell into {@code repetitions}; returns why it failed, or null. */
    private String runOnce(Workload workload, Progress progress, Cell cell, int round,
                           List<Repetition> repetitions) {
        progress.started(cell, round, workload.repeat());
        try {
            CellContext context = prepare(cell, workload.forCell(cell), workload.backlog());
            Repetition repetition;
            try (XminHold ignored = workload.holdXmin() ? XminHold.open(server) : null) {
                repetition = drivers.get(cell.driver()).run(context);
            }
            repetitions.add(repetition);
            progress.finished(cell, repetition);
            return null;
        } catch (Exception e) {
            if (stop.isStopped()) {
                return null;
            }
            String message = oneLine(e);
            progress.skipped(cell, workload.repeat() - round + 1, "failed: " + message);
            return message;
        }
    }

    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.lines().findFirst().orElse("").trim();
    }
}
