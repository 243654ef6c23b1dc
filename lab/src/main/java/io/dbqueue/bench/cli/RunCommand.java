package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Drivers;
import io.dbqueue.bench.driver.StopSignal;
import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.environment.StockSettings;
import io.dbqueue.bench.report.ReportWriter;
import io.dbqueue.bench.report.Results;
import io.dbqueue.bench.run.MatrixRunner;
import io.dbqueue.bench.run.Progress;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.postgres.PostgresServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code bench run}: runs a workload's matrix against PostgreSQL and writes results and report. */
@Command(name = "run", mixinStandardHelpOptions = true, version = BenchCommand.VERSION,
        description = "Runs the benchmark matrix (layouts x batch sizes x drivers), each cell repeated, and writes"
                + " results.json, results.csv, charts, report.md and report.html.")
final class RunCommand implements Callable<Integer> {

    @Mixin
    WorkloadOptions workloadOptions;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>).")
    Path out;

    @Mixin
    ServerOption serverOption;

    @Override
    public Integer call() throws Exception {
        Workload workload = workloadOptions.workload();
        ReportWriter.prepare();
        Path dir = OutputDir.of(out, "");
        PrintStream console = System.out;
        try (CtrlC ctrlC = CtrlC.install(); PostgresServer server = serverOption.connect(workload.serverProfile());
             HikariDataSource admin = server.dataSource(2)) {
            StopSignal stop = ctrlC.stop();
            console.println("bench: " + workload.name() + " workload, " + workload.cells().size() + " cells x "
                    + workload.repeat() + " runs on " + (server.isEmbedded() ? "embedded" : "external")
                    + " PostgreSQL; results in " + dir);
            Instant started = Instant.now();
            Environment environment = EnvironmentProbe.capture(server, ProjectDir.get(), serverOption.settings.keySet());
            StockSettings.openingLines(environment.postgres().nonDefaultSettings())
                    .forEach(line -> console.println("bench: " + line));
            Map<DriverName, Driver> drivers = Drivers.all();
            Progress progress = new Progress(console, System.console() != null,
                    workload.cells().size() * workload.repeat(), workload.estimatedTime());
            MatrixRunner.Outcome outcome = new MatrixRunner(server, admin, drivers, stop, console).run(workload,
                    progress);
            Results results = Results.of(started, Instant.now(), outcome.interrupted(),
                    workloadOptions.describe(workload), environment, outcome.runs(), outcome.notMeasured());
            ReportWriter.write(dir, results);
            progress.end("bench: wrote " + dir.resolve("report.html") + (outcome.interrupted()
                    ? " (interrupted: partial results)" : ""));
            results.verdict().text().forEach(line -> console.println("  " + line));
            return outcome.interrupted() ? BenchMain.ExitCodes.INTERRUPTED : 0;
        }
    }
}
