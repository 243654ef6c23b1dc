package io.dbqueue.stack.fault;

import io.dbqueue.common.Identifiers;
import io.dbqueue.stack.Stack;
import io.dbqueue.stack.StackOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The stack at a steady rate for a long time (30 minutes in full): throughput per window (a minute
 * in full) against the first, every service's resident memory and the queue table's size sampled
 * and their trend over the second half, ERROR lines in the services' logs, and nothing lost.
 */
final class SoakRun {

    private static final Logger LOG = LoggerFactory.getLogger(SoakRun.class);

    private final FaultSettings settings;
    private final String table;
    private final long runId = System.currentTimeMillis();
    private Stack stack;

    private SoakRun(FaultSettings settings) {
        this.settings = settings;
        this.table = Identifiers.tableName(settings.table());
    }

    static SoakResult run(FaultSettings settings, Duration length) throws Exception {
        return new SoakRun(settings).run(length);
    }

    /** A sample: minutes since the measurement began, each service's RSS in MB, the table's size in MB. */
    private record Sample(double minute, Map<String, Double> rssMb, double tableMb) {
    }

    private SoakResult run(Duration length) throws Exception {
        boolean full = length.compareTo(Duration.ofMinutes(10)) >= 0;
        Duration window = full ? Duration.ofMinutes(1) : length.dividedBy(6);
        Duration every = full ? Duration.ofSeconds(10) : Duration.ofSeconds(2);
        StackOptions options = settings.stack("soak", Map.of());
        List<Long> windows = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        FaultLoad load;
        long lost;
        Path logs;
        try (Stack started = Stack.start(options)) {
            stack = started;
            logs = stack.logDir();
            load = new FaultLoad(stack::producerUrls, 4, 10, settings.rate(), runId);
            load.start();
            Thread.sleep(full ? 60_000 : 10_000); // warm-up, not measured: JIT, pools, the table's first pages
            long start = System.nanoTime();
            long windowStart = processed();
            long nextWindow = start + window.toNanos();
            for (long next = start; next - start <= length.toNanos(); next += every.toNanos()) {
                Sql.sleepUntil(next);
                samples.add(new Sample((System.nanoTime() - start) / 60e9, rss(), tableMb()));
                if (System.nanoTime() >= nextWindow) {
                    long now = processed();
                    windows.add(now - windowStart);
                    LOG.info("soak: window {}: {} processed", windows.size(), now - windowStart);
                    windowStart = now;
                    nextWindow += window.toNanos();
                }
            }
            load.stop(Duration.ofMinutes(3));
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (Sql.longOf(stack.connect(), "SELECT count(*) FROM " + table) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            try (Connection results = stack.connectResults()) {
                lost = ProcessedMessages.read(results, runId).lostOf(load.acknowledged());
            }
        }
        List<Sample> secondHalf = samples.subList(samples.size() / 2, samples.size());
        Map<String, Double> rssSlopes = new LinkedHashMap<>();
        Map<String, Double> rssEnd = new LinkedHashMap<>();
        Sample last = samples.get(samples.size() - 1);
        for (String service : last.rssMb().keySet()) {
            // Only the samples that have the service: a process restarted or unreadable for a moment has none.
            List<Sample> with = secondHalf.stream().filter(s -> s.rssMb().containsKey(service)).toList();
            rssSlopes.put(service, Slope.of(with.stream().mapToDouble(Sample::minute).toArray(),
                    with.stream().mapToDouble(s -> s.rssMb().get(service)).toArray()));
            rssEnd.put(service, last.rssMb().get(service));
        }
        double[] x = secondHalf.stream().mapToDouble(Sample::minute).toArray();
        double tableSlope = Slope.of(x, secondHalf.stream().mapToDouble(Sample::tableMb).toArray());
        long errors = errorLines(logs);
        return new SoakResult(windows, rssSlopes, rssEnd, tableSlope, last.tableMb(), errors, load.acknowledgedCount(),
                lost, SoakResult.problems(windows, rssSlopes, tableSlope, errors, lost));
    }

    /** Each service's resident memory in MB, from /proc (Linux). */
    private Map<String, Double> rss() {
        Map<String, Double> rss = new LinkedHashMap<>();
        stack.pids().forEach((service, pid) -> {
            try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
                lines.filter(l -> l.startsWith("VmRSS:")).findFirst().ifPresent(l ->
                        rss.put(service, Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0));
            } catch (IOException e) {
                // not Linux, or the process is gone: no sample
            }
        });
        return rss;
    }

    private double tableMb() throws SQLException {
        return Sql.longOf(stack.connect(), "SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_stat_user_tables"
                + " WHERE relname = '" + table + "' OR relname ~ '^" + table + "_p[0-9]+$'") / 1048576.0;
    }

    private long processed() throws SQLException {
        try (Connection c = stack.connectResults()) {
            return ProcessedMessages.count(c, runId);
        }
    }

    private static long errorLines(Path logs) throws IOException {
        long errors = 0;
        try (Stream<Path> files = Files.list(logs)) {
            for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                errors += Files.readString(log, StandardCharsets.ISO_8859_1).lines().filter(l -> l.contains(" ERROR ")).count();
            }
        }
        return errors;
    }

}
