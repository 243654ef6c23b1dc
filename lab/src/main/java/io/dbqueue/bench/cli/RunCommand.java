package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Drivers;
import io.dbqueue.bench.driver.Shard;
import io.dbqueue.bench.driver.StopSignal;
import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.environment.StockSettings;
import io.dbqueue.bench.metrics.ServerProbe;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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

    @Mixin
    ShardOption shardOption;

    @Override
    public Integer call() throws Exception {
        Workload read = workloadOptions.workload();
        int shardCount = shardOption.count();
        if (shardCount > 0 && (read.backlog() > 0 || read.holdXmin())) { // said here: the user listed no sharded driver
            throw new IllegalArgumentException("--shards cannot run with " + (read.backlog() > 0 ? "a backlog ("
                    + read.backlog() + ")" : "hold_xmin") + ": its sharded drivers cannot honour it; drop --shards");
        }
        Workload workload = read.toBuilder().drivers(ShardOption.withShardDrivers(read.drivers(), shardCount)).build();
        List<String> shardUrls = shardOption.urls();
        ReportWriter.prepare();
        Path dir = OutputDir.of(out, "");
        PrintStream console = System.out;
        List<PostgresServer> servers = shardCount == 0 ? List.of(serverOption.connect(workload.serverProfile()))
                : serverOption.connectShards(workload.serverProfile(), shardCount, shardUrls);
        List<HikariDataSource> admins = new ArrayList<>();
        try (CtrlC ctrlC = CtrlC.install()) {
            servers.forEach(s -> admins.add(s.dataSource(2)));
            PostgresServer server = servers.get(0);
            HikariDataSource admin = admins.get(0);
            List<Shard> shards = new ArrayList<>();
            for (int i = 0; i < shardCount; i++) {
                shards.add(new Shard("s" + (i + 1), servers.get(i), admins.get(i), new ServerProbe(admins.get(i))));
            }
            StopSignal stop = ctrlC.stop();
            console.println("bench: " + workload.name() + " workload, " + workload.cells().size() + " cells x "
                    + workload.repeat() + " runs on " + (server.isEmbedded() ? "embedded" : "external")
                    + " PostgreSQL" + (shardCount == 0 ? "" : " (" + shardCount + " shards)") + "; results in " + dir);
            Instant started = Instant.now();
            Environment environment = EnvironmentProbe.capture(server, ProjectDir.get(), serverOption.settings.keySet(),
                    shards);
            StockSettings.openingLines(environment.postgres().nonDefaultSettings())
                    .forEach(line -> console.println("bench: " + line));
            Map<DriverName, Driver> drivers = Drivers.all();
            Progress progress = new Progress(console, System.console() != null,
                    workload.cells().size() * workload.repeat(), workload.estimatedTime());
            MatrixRunner matrix = new MatrixRunner(server, admin, drivers, stop, console, shards);
            MatrixRunner.Outcome outcome = matrix.run(workload, progress);
            Map<String, String> brokers = new HashMap<>(); // sorted by withServers
            workload.drivers().forEach(d -> matrix.server(d).ifPresent(named -> brokers.put(d.toString(), named)));
            Results results = Results.of(started, Instant.now(), outcome.interrupted(),
                    described(workload, shardCount), environment.withServers(brokers), outcome.runs(),
                    outcome.notMeasured());
            ReportWriter.write(dir, results);
            progress.end("bench: wrote " + dir.resolve("report.html") + (outcome.interrupted()
                    ? " (interrupted: partial results)" : ""));
            results.verdict().text().forEach(line -> console.println("  " + line));
            return outcome.interrupted() ? BenchMain.ExitCodes.INTERRUPTED : 0;
        } finally {
            admins.forEach(HikariDataSource::close);
            servers.forEach(PostgresServer::close);
        }
    }

    /** The workload as results.json gives it, with the run's shard count when it has shards. */
    private Map<String, Object> described(Workload workload, int shardCount) {
        Map<String, Object> described = workloadOptions.describe(workload);
        if (shardCount > 0) {
            described.put("shards", shardCount);
        }
        return described;
    }
}
