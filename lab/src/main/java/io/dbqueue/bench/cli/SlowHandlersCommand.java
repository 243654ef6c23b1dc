package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.handlers.SlowHandlerComparison;
import io.dbqueue.bench.handlers.SlowHandlerSample;
import io.dbqueue.bench.report.SlowHandlerReportWriter;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code bench slow-handlers}: do handlers that take a second starve the producers of the same application? */
@Command(name = "slow-handlers", mixinStandardHelpOptions = true,
        description = "Measures producers enqueueing on a pool shared with 14 workers whose handler takes a second:"
                + " alone, next to at-least-once workers (no connection held while the handler runs) and next to"
                + " exactly-once ones (the handler inside the claim's transaction). Writes slow-handlers.json and"
                + " slow-handlers.md.")
final class SlowHandlersCommand implements Callable<Integer> {

    private static final long CONNECTION_TIMEOUT_MS = 2_000;

    @Mixin
    ServerOption serverOption;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>-slow-handlers).")
    Path out;

    @Option(names = "--pool", paramLabel = "N", defaultValue = "10", description = "Connections in the pool, fewer than the 14 workers (default: ${DEFAULT-VALUE}).")
    int pool;

    @Option(names = "--handler-ms", paramLabel = "MS", defaultValue = "1000", description = "Handler time per batch (default: ${DEFAULT-VALUE}).")
    long handlerMs;

    @Option(names = "--phase-seconds", paramLabel = "S", defaultValue = "15", description = "Length of each phase (default: ${DEFAULT-VALUE}).")
    int phaseSeconds;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Repetitions (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Override
    public Integer call() throws Exception {
        if (pool < 1 || pool >= SlowHandlerComparison.WORKERS) {
            throw new IllegalArgumentException("--pool must be between 1 and " + (SlowHandlerComparison.WORKERS - 1)
                    + " (fewer than the " + SlowHandlerComparison.WORKERS + " workers), was " + pool);
        }
        if (handlerMs < 1 || phaseSeconds < 1 || repeat < 1) {
            throw new IllegalArgumentException("--handler-ms, --phase-seconds and --repeat must be at least 1");
        }
        Path dir = OutputDir.of(out, "-slow-handlers");
        Instant started = Instant.now();
        Duration handler = Duration.ofMillis(handlerMs);
        Duration phase = Duration.ofSeconds(phaseSeconds);
        try (PostgresServer server = serverOption.connect(ServerProfile.STOCK); HikariDataSource ds = server.dataSource(pool)) {
            ds.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
            List<SlowHandlerSample> samples = new SlowHandlerComparison(ds, phase, handler, repeat)
                    .run(line -> System.out.println("bench: " + line));
            SlowHandlerReportWriter.write(dir, started, SlowHandlerReportWriter.settings(
                    SlowHandlerComparison.PRODUCERS, SlowHandlerComparison.WORKERS, handler, phase, pool,
                    CONNECTION_TIMEOUT_MS, repeat), EnvironmentProbe.capture(server, ProjectDir.get(),
                    serverOption.settings.keySet()), samples);
        }
        System.out.println("bench: wrote " + dir.resolve("slow-handlers.md"));
        return 0;
    }
}
