package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.answer.AnswerPlan;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerRunner;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.report.Decision;
import io.dbqueue.bench.driver.Drivers;
import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.environment.StockSettings;
import io.dbqueue.bench.report.AnswerReportWriter;
import io.dbqueue.bench.report.ReportWriter;
import io.dbqueue.bench.run.MatrixRunner;
import io.dbqueue.bench.workload.WorkloadFile;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code bench answer}: how far PostgreSQL carries a queue before a broker is the obvious choice. */
@Command(name = "answer", mixinStandardHelpOptions = true, version = BenchCommand.VERSION,
        description = "Sweeps offered rates for every system (the PostgreSQL queue and log, RabbitMQ, NATS, Kafka) on"
                + " stock settings and reports the highest rate each holds with p99 at or under 10, 50 and 200 ms."
                + " PostgreSQL's own pgbench, running a minimal queue flat out, gives the ceiling of each shape."
                + " A broker that is not reachable is skipped with one line; Kafka is started by the lab. About 90"
                + " minutes; --quick about 5.")
final class AnswerCommand implements Callable<Integer> {

    @Option(names = "--quick", description = "One shape, five systems, three rates, one run each (about 5 minutes).")
    boolean quick;

    @Option(names = "--systems", split = ",", paramLabel = "ID",
            description = "Only these systems (default: all): queue-at-least-once, queue-exactly-once,"
                    + " rabbitmq-classic, rabbitmq-quorum, nats-jetstream, log-1-group, log-5-groups, kafka-1-group,"
                    + " kafka-5-groups, kafka-fsync-1-group, kafka-fsync-5-groups.")
    List<String> systems;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>-answer).")
    Path out;

    @Mixin
    ServerOption serverOption;

    @Override
    public Integer call() throws Exception {
        AnswerPlan plan = quick ? AnswerPlan.quick() : AnswerPlan.full();
        if (systems != null) {
            AnswerPlan all = plan;
            plan = plan.only(systems.stream().map(AnswerSystem::byId).toList());
            if (plan.shapes().isEmpty()) {
                throw new IllegalArgumentException("the " + all.name() + " plan runs none of " + systems + "; it runs "
                        + AnswerSystem.ids(all.shapes().stream().flatMap(s -> s.systems().stream()).distinct()
                        .toList()));
            }
        }
        ReportWriter.prepare();
        Path dir = OutputDir.of(out, "-answer");
        PrintStream console = System.out;
        try (CtrlC ctrlC = CtrlC.install(); PostgresServer server = serverOption.connect(ServerProfile.STOCK);
             HikariDataSource admin = server.dataSource(2)) {
            String layout = bestLayout(admin);
            console.println("bench: answer (" + plan.name() + ") on " + (server.isEmbedded() ? "embedded" : "external")
                    + " PostgreSQL, queue layout " + layout + "; results in " + dir);
            Instant started = Instant.now();
            Environment environment = EnvironmentProbe.capture(server, ProjectDir.get(), serverOption.settings.keySet());
            StockSettings.openingLines(environment.postgres().nonDefaultSettings())
                    .forEach(line -> console.println("bench: " + line));
            MatrixRunner matrix = new MatrixRunner(server, admin, Drivers.all(), ctrlC.stop(), console)
                    .withoutJvmWarmUp();
            AnswerRunner runner = new AnswerRunner(plan, WorkloadFile.profile("default"), layout, matrix, ctrlC.stop(),
                    console);
            AnswerRunner.Measured measured = runner.run();
            AnswerResults results = new AnswerResults(AnswerResults.KIND, AnswerResults.SCHEMA_VERSION,
                    started.toString(), Instant.now().toString(), ctrlC.stop().isStopped(), plan.name(), layout,
                    plan.repeat(), plan.warmup().toMillis() / 1000.0, plan.duration().toMillis() / 1000.0,
                    plan.producersBatched(), plan.producersSingle(), plan.consumers(), plan.consumerBatch(),
                    plan.targetsMs(), environment, runner.servers(measured.sweeps()), measured.sweeps(),
                    measured.ceilings());
            AnswerReportWriter.write(dir, results);
            console.println("bench: wrote " + dir.resolve("report.md"));
            Decision.of(results).forEach(line -> console.println("  " + line));
            return results.interrupted() ? BenchMain.ExitCodes.INTERRUPTED : 0;
        }
    }

    /**
     * The queue layout for the server: dbq_seq_pk from PostgreSQL 18 on; before 18 its statements by id
     * can be planned as a read of the queue's whole key range, and dbq_seq is faster (docs/layouts.md).
     */
    static String bestLayout(HikariDataSource admin) throws SQLException {
        try (Connection c = admin.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW server_version_num")) {
            rs.next();
            return Integer.parseInt(rs.getString(1)) >= 180000 ? "dbq_seq_pk" : "dbq_seq";
        }
    }
}
