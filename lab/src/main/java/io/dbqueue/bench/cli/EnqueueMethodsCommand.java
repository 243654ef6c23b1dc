package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.enqueue.EnqueueComparison;
import io.dbqueue.bench.enqueue.EnqueueSample;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.report.EnqueueReportWriter;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code bench enqueue-methods}: unnest of arrays, multi-row VALUES and COPY, side by side. */
@Command(name = "enqueue-methods", mixinStandardHelpOptions = true,
        description = "Measures the three one-round-trip ways to enqueue a batch (unnest of arrays, multi-row VALUES,"
                + " COPY) and writes enqueue-methods.json and enqueue-methods.md.")
final class EnqueueMethodsCommand implements Callable<Integer> {

    @Mixin
    ServerOption serverOption;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>-enqueue).")
    Path out;

    @Option(names = "--batch-sizes", split = ",", paramLabel = "N", defaultValue = "10,100,1000",
            description = "Batch sizes (default: ${DEFAULT-VALUE}).")
    List<Integer> batchSizes;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "50000", description = "Rows per run (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Repetitions (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Override
    public Integer call() throws Exception {
        if (batchSizes.stream().anyMatch(b -> b < 1 || b > 10_000)) {
            throw new IllegalArgumentException("--batch-sizes must be between 1 and 10000, was " + batchSizes);
        }
        if (rows < 1 || repeat < 1) {
            throw new IllegalArgumentException("--rows and --repeat must be at least 1");
        }
        Path dir = OutputDir.of(out, "-enqueue");
        Instant started = Instant.now();
        try (PostgresServer server = serverOption.connect(ServerProfile.STOCK); HikariDataSource ds = server.dataSource(2)) {
            List<EnqueueSample> samples = new EnqueueComparison(ds, rows, repeat)
                    .run(batchSizes, line -> System.out.println("bench: " + line));
            EnqueueReportWriter.write(dir, started, rows, repeat, EnvironmentProbe.capture(server, ProjectDir.get(), serverOption.settings.keySet()),
                    samples);
        }
        System.out.println("bench: wrote " + dir.resolve("enqueue-methods.md"));
        return 0;
    }
}
