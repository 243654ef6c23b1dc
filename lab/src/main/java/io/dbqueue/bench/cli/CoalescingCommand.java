package io.dbqueue.bench.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.producers.CoalescingComparison;
import io.dbqueue.bench.producers.CoalescingSample;
import io.dbqueue.bench.report.CoalescingReportWriter;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.ServerProfile;
import io.dbqueue.queue.QueueProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code bench coalescing}: what merging concurrent single enqueues buys many threads that each send one message. */
@Command(name = "coalescing", mixinStandardHelpOptions = true,
        description = "Measures many threads each enqueueing one message at a time and waiting for its commit, with"
                + " QueueProducer.enqueue and with a CoalescingProducer, on a stock server. Writes coalescing.json and"
                + " coalescing.md.")
final class CoalescingCommand implements Callable<Integer> {

    @Mixin
    ServerOption serverOption;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>-coalescing).")
    Path out;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "32", description = "Enqueueing threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--pool", paramLabel = "N", defaultValue = "10", description = "Connections in the pool, HikariCP's default (default: ${DEFAULT-VALUE}).")
    int pool;

    @Option(names = "--linger-ms", paramLabel = "MS", defaultValue = "0", description = "The coalescing producer's linger; 0 writes a batch at once when none is being written (default: ${DEFAULT-VALUE}).")
    long lingerMs;

    @Option(names = "--max-batch", paramLabel = "N", defaultValue = "100", description = "The coalescing producer's largest batch (default: ${DEFAULT-VALUE}).")
    int maxBatch;

    @Option(names = "--phase-seconds", paramLabel = "S", defaultValue = "10", description = "Length of each way's phase (default: ${DEFAULT-VALUE}).")
    int phaseSeconds;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Repetitions (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || pool < 1 || phaseSeconds < 1 || repeat < 1 || lingerMs < 0) {
            throw new IllegalArgumentException("--threads, --pool, --phase-seconds and --repeat must be at least 1,"
                    + " --linger-ms at least 0");
        }
        if (maxBatch < 1 || maxBatch > QueueProducer.MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("--max-batch must be between 1 and " + QueueProducer.MAX_BATCH_SIZE
                    + ", was " + maxBatch);
        }
        Path dir = OutputDir.of(out, "-coalescing");
        Instant started = Instant.now();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("threads", threads);
        settings.put("pool", pool);
        settings.put("linger_ms", lingerMs);
        settings.put("max_batch", maxBatch);
        settings.put("phase_seconds", phaseSeconds);
        settings.put("repeat", repeat);
        try (PostgresServer server = serverOption.connect(ServerProfile.STOCK); HikariDataSource ds = server.dataSource(pool)) {
            List<CoalescingSample> samples = new CoalescingComparison(ds, threads, Duration.ofMillis(lingerMs), maxBatch,
                    Duration.ofSeconds(phaseSeconds), repeat).run(line -> System.out.println("bench: " + line));
            CoalescingReportWriter.write(dir, started, settings, EnvironmentProbe.capture(server, ProjectDir.get(),
                    serverOption.settings.keySet()), samples);
        }
        System.out.println("bench: wrote " + dir.resolve("coalescing.md"));
        return 0;
    }
}
