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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The known way PostgreSQL queues collapse: a transaction held open keeps the xmin horizon, so vacuum
 * can remove none of the dead row versions every claimed and finished task leaves, and claims wade
 * through more of them by the minute. The stack runs at a steady rate before, during and after a
 * transaction held open on a separate connection; each phase reports throughput, backlog, latency,
 * dead tuples and table size, and consumer-app's vacuum watch must warn about the holder.
 */
final class HeldXminRun {

    private static final Logger LOG = LoggerFactory.getLogger(HeldXminRun.class);
    private static final Pattern WARNING = Pattern.compile("queue table \\S+: vacuum blocked[^\\n]*");

    private final FaultSettings settings;
    private final String table;
    private final long runId = System.currentTimeMillis();
    private Stack stack;

    private HeldXminRun(FaultSettings settings) {
        this.settings = settings;
        this.table = Identifiers.tableName(settings.table());
    }

    /** @param held how long the transaction stays open; the phases before and after last half as long */
    static HeldXminResult run(FaultSettings settings, Duration held) throws Exception {
        return new HeldXminRun(settings).run(held);
    }

    private HeldXminResult run(Duration held) throws Exception {
        // The watch checks every 30 s and warns once the horizon is 60 s old; a short hold is checked sooner.
        Duration check = held.compareTo(Duration.ofMinutes(2)) < 0 ? Duration.ofSeconds(2) : Duration.ofSeconds(30);
        Duration age = held.compareTo(Duration.ofMinutes(2)) < 0 ? Duration.ofSeconds(5) : Duration.ofSeconds(60);
        StackOptions options = settings.stack("held_xmin", Map.of("DBQ_VACUUMWATCH_INTERVAL", check.toMillis() + "ms",
                "DBQ_VACUUMWATCH_HORIZONAGE", age.toMillis() + "ms"));
        List<HeldXminResult.Phase> phases = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        FaultLoad load;
        long lost;
        try (Stack started = Stack.start(options)) {
            stack = started;
            load = new FaultLoad(stack::producerUrls, 4, 10, settings.rate(), runId);
            load.start();
            // JIT-compiled and pooled before anything is measured: a cold consumer falls behind on its own.
            Thread.sleep(held.compareTo(Duration.ofMinutes(2)) < 0 ? 10_000 : 60_000);
            phases.add(phase("before", held.dividedBy(2)));
            try (Connection holder = stack.connect()) {
                holder.setAutoCommit(false);
                try (Statement st = holder.createStatement()) {
                    st.execute("SELECT txid_current()"); // an xid and a snapshot: the horizon stops here
                }
                LOG.info("held_xmin: a transaction holds the xmin horizon for {} s", held.toSeconds());
                phases.add(phase("held", held));
                holder.commit();
            }
            phases.add(phase("after", held.dividedBy(2)));
            if (!load.stop(Duration.ofMinutes(3))) {
                problems.add("requests still unanswered 3 minutes after the load");
            }
            awaitDrained(Duration.ofMinutes(5));
            try (Connection results = stack.connectResults()) {
                lost = ProcessedMessages.read(results, runId).lostOf(load.acknowledged());
            }
        }
        if (lost > 0) {
            problems.add(lost + " acknowledged messages never processed");
        }
        String warning = warning(options.logDir().resolve("consumer-app-1.log"));
        if (warning == null) {
            problems.add("consumer-app's vacuum watch never warned while the horizon was held");
        }
        return new HeldXminResult(phases, warning, load.acknowledgedCount(), lost, problems);
    }

    private HeldXminResult.Phase phase(String name, Duration length) throws Exception {
        Instant from = Instant.now();
        long processedBefore = processed();
        Thread.sleep(length.toMillis()); // the phase itself: the load runs meanwhile
        Instant to = Instant.now();
        double seconds = Duration.between(from, to).toNanos() / 1e9;
        double rate = (processed() - processedBefore) / seconds;
        double[] latency = latency(from, to);
        HeldXminResult.Phase phase = new HeldXminResult.Phase(name, seconds, rate, queueLength(), latency[0], latency[1],
                Sql.longOf(stack.connect(), "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE " + tables()),
                Sql.longOf(stack.connect(), "SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_stat_user_tables WHERE "
                        + tables()) / 1048576.0);
        LOG.info("held_xmin: {}", phase);
        return phase;
    }

    /** The queue table, or its partitions. */
    private String tables() {
        return "(relname = '" + table + "' OR relname ~ '^" + table + "_p[0-9]+$')";
    }

    private long queueLength() throws SQLException {
        return Sql.longOf(stack.connect(), "SELECT count(*) FROM " + table);
    }

    private void awaitDrained(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (queueLength() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    private long processed() throws SQLException {
        try (Connection c = stack.connectResults()) {
            return ProcessedMessages.count(c, runId);
        }
    }

    /** p50 and p99 end-to-end latency in ms of the messages completed between {@code from} and {@code to}. */
    private double[] latency(Instant from, Instant to) throws SQLException {
        try (Connection c = stack.connectResults(); PreparedStatement ps = c.prepareStatement(
                "SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY completed_us - enqueued_us), 0) / 1000.0,"
                        + " coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY completed_us - enqueued_us), 0) / 1000.0"
                        + " FROM test_stat WHERE run_id = ? AND completed_us >= ? AND completed_us < ?")) {
            ps.setLong(1, runId);
            ps.setLong(2, micros(from));
            ps.setLong(3, micros(to));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new double[]{rs.getDouble(1), rs.getDouble(2)};
            }
        }
    }

    private static String warning(Path log) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        Matcher m = WARNING.matcher(Files.readString(log, StandardCharsets.ISO_8859_1));
        return m.find() ? m.group() : null;
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }
}
