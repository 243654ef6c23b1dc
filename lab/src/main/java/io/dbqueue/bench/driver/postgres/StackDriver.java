package io.dbqueue.bench.driver.postgres;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.LatencyBucket;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.Measurement;
import io.dbqueue.bench.metrics.SecondSample;
import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The experiment's topology: producer-app, consumer-app and test-app as separate JVMs, started by
 * the stack launcher ({@link StackProcess}) against the bench's PostgreSQL. test-app sends the messages over HTTP and
 * reports throughput and latency; a warm-up run precedes the measured one. The workload's
 * producers are producer-app processes, its consumers the worker threads of one consumer-app.
 * test-app runs a message count, so a duration-based workload sends {@value #MESSAGES_PER_SECOND}
 * messages per second of its duration.
 */
public final class StackDriver implements Driver {

    static final int MESSAGES_PER_SECOND = 1000;
    private static final List<String> SERVICES = List.of("producer-app", "consumer-app", "test-app");
    private static final Path LOG_DIR = Path.of(System.getProperty("java.io.tmpdir"), "bench-stack-logs");

    @Override
    public DriverName name() {
        return DriverName.STACK;
    }

    @Override
    public boolean runsInThisJvm() {
        return false;
    }

    @Override
    public String unavailableReason() {
        List<Path> missing = SERVICES.stream().map(StackDriver::jar).filter(p -> !Files.isRegularFile(p))
                .collect(Collectors.toCollection(ArrayList::new));
        if (!Files.isRegularFile(StackProcess.LAUNCHER)) {
            missing.add(StackProcess.LAUNCHER);
        }
        if (missing.isEmpty()) {
            return null;
        }
        return "not built: " + missing + "; ./bench builds them when the stack driver is asked for, or run"
                + " ./mvnw -q -B package -DskipTests -pl apps/stack,apps/producer-app,apps/consumer-app,apps/test-app -am";
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        List<String> arguments = List.of("--free-ports", "--producers", Integer.toString(workload.producers()),
                "--consumers", "1", "--consumer-threads", Integer.toString(workload.consumers()),
                "--table", context.location().table().name(),
                "--batch-size", Integer.toString(context.cell().batchSize()), "--stats", "http",
                "--messages-per-request", Integer.toString(workload.stack().messagesPerRequest()),
                "--concurrency", Integer.toString(workload.stack().concurrency()), "--mode", Workload.modeName(workload.mode()),
                "--jdbc-url", context.server().jdbcUrl(), "--log-dir", LOG_DIR.toString());
        long messages = workload.messages() > 0 ? workload.messages()
                : Math.max(MESSAGES_PER_SECOND, workload.duration().toSeconds() * MESSAGES_PER_SECOND);
        long warmup = workload.warmup().toSeconds() * MESSAGES_PER_SECOND;
        Duration timeout = workload.duration().multipliedBy(10).plusMinutes(2);
        try (StackProcess stack = StackProcess.start(arguments, context.server().user(), context.server().password(),
                LOG_DIR)) {
            TestAppClient testApp = new TestAppClient(stack.testAppUrl());
            if (warmup > 0) {
                testApp.run(warmup, timeout, context.stop());
            }
            String table = context.location().table().name();
            ServerProbe.Mark mark = context.serverProbe().mark(List.of(table));
            JsonNode result = testApp.run(messages, timeout, context.stop());
            Measurement measurement = measurement(result);
            ServerStats server = context.serverProbe().since(mark, List.of(table), measurement.processed());
            return new Repetition(measurement, server, null, List.of());
        }
    }

    /**
     * test-app's result as a measured window. Its series counts per second from the start of each
     * second (ours from the end), and it reports no enqueue series, so those counts are 0.
     */
    static Measurement measurement(JsonNode result) {
        JsonNode l = result.get("latencyMs");
        LatencySummary latency = new LatencySummary(l.get("min").asDouble(), l.get("avg").asDouble(),
                l.get("p50").asDouble(), l.get("p95").asDouble(), l.get("p99").asDouble(), l.get("max").asDouble());
        List<SecondSample> series = new ArrayList<>();
        for (JsonNode s : result.path("throughput")) {
            series.add(new SecondSample(s.get("second").asDouble() + 1, 0, s.get("count").asLong(), 0, 0, 0, 0));
        }
        List<LatencyBucket> buckets = new ArrayList<>();
        for (JsonNode b : result.path("latencyBuckets")) {
            buckets.add(new LatencyBucket(b.get("upTo").asLong(), b.get("min").asDouble(), b.get("avg").asDouble(),
                    b.get("max").asDouble(), b.get("p95").asDouble(), b.get("p99").asDouble()));
        }
        return new Measurement(result.get("durationSeconds").asDouble(), result.get("messageCount").asLong(),
                result.get("processedCount").asLong(), latency, LatencySummary.NONE, LatencySummary.NONE, null, series,
                buckets,
                false);
    }

    private static Path jar(String service) {
        return ProjectDir.get().resolve(Path.of("apps", service, "target", service + ".jar"));
    }
}
