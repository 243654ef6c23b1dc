package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.bench.metrics.BrokerStats;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.Measurement;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.ProcUsage;
import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.metrics.ShardStats;
import io.dbqueue.bench.metrics.Window;
import io.dbqueue.bench.workload.Workload;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The repetition of a driver whose load runs in this JVM: start the load, let it warm up
 * uncounted, then sample a window once a second until the duration is over (or the message
 * count is reached, or Ctrl-C), and read the server's (when the load uses a queue table) and the
 * client's figures before the load stops. The server's activity is also read once a minute.
 */
public final class InProcessMeasurement {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long the messages of a window are followed after it closes: longer than any latency target. */
    public static final Duration COHORT_GRACE = Duration.ofSeconds(1);
    private static final long COHORT_POLL = TimeUnit.MILLISECONDS.toNanos(5);

    private InProcessMeasurement() {
    }

    public static Repetition run(CellContext context, LoadStarter starter) throws Exception {
        List<String> tables = context.location() == null ? List.of() : List.of(context.location().table().name());
        return run(context, tables, 1, starter);
    }

    /**
     * As {@link #run(CellContext, LoadStarter)}, with the server's figures read for {@code tables}
     * (none: a broker's cell, no server figures) and each message processed {@code fanOut} times.
     */
    public static Repetition run(CellContext context, List<String> tables, int fanOut, LoadStarter starter) throws Exception {
        return run(context, tables, fanOut, null, starter);
    }

    /**
     * A broker's cell: as {@link #run(CellContext, List, int, LoadStarter)}, with the figures of the
     * broker's process ({@link BrokerStats}) when it is on this machine ({@code broker} not null).
     */
    public static Repetition run(CellContext context, List<String> tables, int fanOut, BrokerProcess broker,
                          LoadStarter starter) throws Exception {
        return run(context, tables, fanOut, broker, Map.of(), starter);
    }

    /**
     * A sharded cell: as {@link #run(CellContext, LoadStarter)}, with the figures of each of the context's
     * shards (its queue's messages counted in {@code processedByShard}) and their sum as the server's.
     */
    public static Repetition runSharded(CellContext context, Map<String, LongAdder> processedByShard,
                                        LoadStarter starter) throws Exception {
        return run(context, List.of(), 1, null, processedByShard, starter);
    }

    private static Repetition run(CellContext context, List<String> tables, int fanOut, BrokerProcess broker,
                                  Map<String, LongAdder> processedByShard, LoadStarter starter) throws Exception {
        Workload workload = context.workload();
        boolean probed = !tables.isEmpty();
        // only a queue table is pre-filled with the backlog
        Meter meter = new Meter(context.location() == null ? 0 : workload.backlog(), fanOut);
        try (Load load = starter.start(meter)) {
            context.stop().await(workload.warmup().toNanos());
            failIfDied(load);
            ServerProbe.Mark mark = probed ? context.serverProbe().mark(tables) : null;
            ShardMarks shardMarks = processedByShard.isEmpty() ? null : ShardMarks.open(context, processedByShard);
            long cpu = context.clientProbe().cpuNanos();
            ProcUsage brokerMark = broker == null ? null : broker.usage();
            ServerMinutes minutes = probed ? new ServerMinutes(context.serverProbe(), tables, mark.counters()) : null;
            Window window = Window.open(meter, expectedMessages(workload, meter));
            boolean interrupted = measure(window, minutes, workload, context, load);
            if (minutes != null && !interrupted) {
                minutes.windowEnded(window.seconds());
            }
            long processed = window.processed();
            ClientStats client = unlessStopped(context,
                    () -> context.clientProbe().since(cpu, window.startNanos(), processed, context.admin()));
            BrokerStats brokerStats = broker == null ? null
                    : BrokerStats.since(broker, brokerMark, window.seconds(), processed);
            Measurement measurement = window.close(interrupted);
            List<ShardStats> shards = shardMarks == null ? List.of()
                    : Objects.requireNonNullElse(unlessStopped(context, shardMarks::since), List.of());
            ServerStats server = probed ? unlessStopped(context,
                    () -> context.serverProbe().since(mark, tables, measurement.processed()))
                    : shards.isEmpty() ? null
                    : ServerStats.combined(shards.stream().map(ShardStats::server).toList(), measurement.processed());
            CohortLatency cohort = interrupted ? null : followCohort(meter, context.stop());
            failIfDied(load); // in the cohort's grace too: a repetition whose load failed is no result
            return new Repetition(measurement, server, client, minutes == null ? List.of() : minutes.minutes(),
                    brokerStats, shards, cohort);
        }
    }

    /** Samples the window until it is over; returns whether Ctrl-C cut it short. */
    private static boolean measure(Window window, ServerMinutes minutes, Workload workload, CellContext context,
                                   Load load) throws SQLException {
        long end = window.startNanos() + workload.duration().toNanos();
        long nextSecond = window.startNanos() + SECOND;
        int seconds = 0;
        while (true) {
            long now = System.nanoTime();
            boolean done = now >= end || (workload.messages() > 0 && window.processed() >= workload.messages());
            if (done || context.stop().isStopped()) {
                return !done;
            }
            if (now >= nextSecond) {
                window.closeSecond();
                nextSecond += SECOND;
                if (++seconds % 60 == 0 && minutes != null) {
                    minutes.minuteEnded();
                }
            } else {
                window.tick();
            }
            failIfDied(load);
            context.stop().await(Math.min(TICK, Math.min(nextSecond, end) - now));
        }
    }

    /**
     * Keeps the load running until every message stamped in the window is delivered, or for {@link #COHORT_GRACE}:
     * the window's latency leaves out what was still waiting when it closed, the cohort's counts it.
     */
    private static CohortLatency followCohort(Meter meter, StopSignal stop) {
        long deadline = meter.cohortClosedNanos() + COHORT_GRACE.toNanos(); // from the window's close, not from now
        long now = System.nanoTime();
        while (meter.cohortUnfinished() > 0 && now < deadline && !stop.isStopped()) {
            stop.await(Math.min(deadline - now, COHORT_POLL));
            now = System.nanoTime();
        }
        return meter.cohortLatency();
    }

    /** What the window will probably see, from the warm-up's rate: it sets the size of the latency buckets. */
    private static long expectedMessages(Workload workload, Meter meter) {
        if (workload.messages() > 0) {
            return workload.messages();
        }
        double warmupSeconds = workload.warmup().toNanos() / 1e9;
        return warmupSeconds <= 0 ? 0
                : (long) (meter.processedTotal() / warmupSeconds * workload.duration().toNanos() / 1e9);
    }

    /** Each shard's counters and processed count when the window opened. */
    private record ShardMarks(List<Shard> shards, List<String> tables, List<ServerProbe.Mark> marks,
                              Map<String, LongAdder> processed, long[] processedAtMark) {

        static ShardMarks open(CellContext context, Map<String, LongAdder> processed) throws SQLException {
            List<String> tables = List.of(context.location().table().name());
            List<ServerProbe.Mark> marks = new ArrayList<>();
            long[] counts = new long[context.shards().size()];
            for (int i = 0; i < counts.length; i++) {
                Shard shard = context.shards().get(i);
                counts[i] = processed.get(shard.name()).sum();
                marks.add(shard.probe().mark(tables));
            }
            return new ShardMarks(context.shards(), tables, marks, processed, counts);
        }

        List<ShardStats> since() throws SQLException {
            List<ShardStats> stats = new ArrayList<>();
            for (int i = 0; i < shards.size(); i++) {
                Shard shard = shards.get(i);
                long done = processed.get(shard.name()).sum() - processedAtMark[i];
                stats.add(shard.probe().shardSince(shard.name(), marks.get(i), tables, done));
            }
            return stats;
        }
    }

    @FunctionalInterface
    private interface Probe<T> {
        T read() throws SQLException;
    }

    /** A probe's figures; null when Ctrl-C has stopped the server under it, so that the window is still kept. */
    private static <T> T unlessStopped(CellContext context, Probe<T> probe) throws SQLException {
        try {
            return probe.read();
        } catch (SQLException e) {
            if (context.stop().isStopped()) {
                return null;
            }
            throw e;
        }
    }

    private static void failIfDied(Load load) {
        Throwable failure = load.failure();
        if (failure != null) {
            throw new IllegalStateException("the load failed: " + failure.getMessage(), failure);
        }
    }
}
