package io.dbqueue.bench.run;

import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.metrics.ClientProbe;
import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueLocation;

import javax.sql.DataSource;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs every cell of a workload's matrix, each repetition from the same fresh table, until done or stopped. */
public final class MatrixRunner {

    public static final String QUEUE_NAME = "bench";

    private final Workload workload;
    private final PostgresServer server;
    private final DataSource admin;
    private final Map<String, Driver> drivers;
    private final StopSignal stop;
    private final Progress progress;
    private final TablePreparer preparer;
    private final ServerProbe serverProbe;
    private final ClientProbe clientProbe = new ClientProbe();
    private final Map<String, Optional<String>> unavailable = new HashMap<>();

    public MatrixRunner(Workload workload, PostgresServer server, DataSource admin, Map<String, Driver> drivers,
                        StopSignal stop, Progress progress, PrintStream log) throws SQLException {
        this.workload = workload;
        this.server = server;
        this.admin = admin;
        this.drivers = drivers;
        this.stop = stop;
        this.progress = progress;
        this.preparer = new TablePreparer(admin, log);
        this.serverProbe = new ServerProbe(admin);
    }

    /** What was measured and what was not. */
    public record Outcome(List<CellResult> runs, List<NotMeasured> notMeasured, boolean interrupted) {
    }

    public Outcome run() {
        List<CellResult> runs = new ArrayList<>();
        List<NotMeasured> notMeasured = new ArrayList<>();
        for (Cell cell : workload.cells()) {
            if (stop.isStopped()) {
                break;
            }
            Driver driver = drivers.get(cell.driver());
            Optional<String> reason = unavailable.computeIfAbsent(cell.driver(),
                    d -> Optional.ofNullable(driver.unavailableReason()));
            if (reason.isPresent()) {
                progress.skipped(cell, workload.repeat(), reason.get());
                notMeasured.add(new NotMeasured(cell.driver(), cell.layout(), cell.batchSize(), "skipped",
                        reason.get()));
                continue;
            }
            List<Repetition> repetitions = new ArrayList<>();
            String failure = repeat(driver, cell, repetitions);
            if (failure != null) {
                notMeasured.add(new NotMeasured(cell.driver(), cell.layout(), cell.batchSize(), "failed", failure));
            }
            if (!repetitions.isEmpty()) {
                runs.add(CellResult.of(cell, repetitions));
            }
        }
        return new Outcome(runs, notMeasured, stop.isStopped());
    }

    /** Runs the cell's repetitions into {@code repetitions}; returns why it failed, or null. */
    private String repeat(Driver driver, Cell cell, List<Repetition> repetitions) {
        QueueLocation location = cell.usesTable() ? QueueLocation.of(Layout.named(cell.layout()), QUEUE_NAME) : null;
        for (int i = 1; i <= workload.repeat() && !stop.isStopped(); i++) {
            progress.started(cell, i, workload.repeat());
            try {
                if (location != null) {
                    preparer.prepare(location, workload.backlog(), workload.messageSize());
                }
                Repetition repetition = driver.run(new CellContext(cell, workload, location, server, admin,
                        serverProbe, clientProbe, stop));
                repetitions.add(repetition);
                progress.finished(cell, repetition);
            } catch (Exception e) {
                if (stop.isStopped()) {
                    return null;
                }
                String message = oneLine(e);
                progress.skipped(cell, workload.repeat() - i + 1, "failed: " + message);
                return message;
            }
        }
        return null;
    }

    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.lines().findFirst().orElse("").trim();
    }
}
