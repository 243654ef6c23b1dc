package io.dbqueue.stack.fault;

import io.dbqueue.common.Identifiers;
import io.dbqueue.stack.Stack;
import io.dbqueue.stack.StackOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One fault scenario: starts the stack (one producer-app, one consumer-app, test-app) on a PostgreSQL
 * that survives the faults, drives it with {@link FaultLoad}, injects the scenario's fault at even
 * intervals during the load, lets the queue drain, and compares what was acknowledged with what was
 * processed.
 */
final class FaultRun {

    private static final Logger LOG = LoggerFactory.getLogger(FaultRun.class);
    private static final String QUEUE = "messages";
    private static final int CLIENTS = 4;
    private static final int MESSAGES_PER_REQUEST = 10;
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(3);
    private static final long POLL_MILLIS = 50;
    /** How long the database stays down in crash_database: producers answer 503 meanwhile. */
    private static final Duration DATABASE_DOWNTIME = Duration.ofSeconds(5);
    /** How long lock_wait holds the queue table: longer than the clients' request timeout, so they send again. */
    private static final Duration LOCK_HELD = Duration.ofSeconds(12);
    private static final List<String> SERVER_SETTINGS = List.of("server_version", "fsync", "synchronous_commit",
            "full_page_writes", "autovacuum_naptime", "shared_buffers", "max_connections");

    private final FaultScenario scenario;
    private final FaultSettings settings;
    private final String table;
    private final long runId = System.currentTimeMillis();
    private Stack stack;
    private FaultLoad load;
    private PostgresCrash server;
    private long duplicateBound;
    private double recoverySeconds;
    private final List<String> recoveryProblems = new ArrayList<>();

    private FaultRun(FaultScenario scenario, FaultSettings settings) {
        this.scenario = scenario;
        this.settings = settings;
        this.table = Identifiers.tableName(settings.table());
    }

    /** Runs {@code scenario}; adds the server's version and key settings to {@code environment} if it has none yet. */
    static FaultResult run(FaultScenario scenario, FaultSettings settings, Map<String, Object> environment)
            throws Exception {
        return new FaultRun(scenario, settings).run(environment);
    }

    private FaultResult run(Map<String, Object> environment) throws Exception {
        if (scenario.needsOwnServer() && settings.jdbcUrl() != null) {
            throw new IllegalArgumentException(scenario.id() + " stops the database, so it needs one it owns (the embedded"
                    + " PostgreSQL); it never stops the external server at " + settings.jdbcUrl());
        }
        StackOptions options = settings.stack(scenario.id(), Map.of("CONSUMER_EFFECTS", "true"));
        LOG.info("{}: starting the stack ({}, lease {})", scenario.id(), settings.mode(), settings.lease());
        try (Stack started = Stack.start(options)) {
            stack = started;
            if (!environment.containsKey("server_version")) {
                environment.put("postgres", settings.jdbcUrl() == null ? "embedded, owned by the scenario" : "external");
                for (String setting : SERVER_SETTINGS) {
                    environment.put(setting, Sql.textOf(stack.connect(), "SHOW " + setting));
                }
            }
            if (scenario.needsOwnServer()) {
                try (Connection c = stack.connect()) {
                    server = PostgresCrash.of(c, settings.logDir().resolve(scenario.id()).resolve("postgres.log"));
                }
            }
            load = new FaultLoad(stack::producerUrls, CLIENTS, MESSAGES_PER_REQUEST, settings.rate(), runId);
            long start = System.nanoTime();
            load.start();
            int faults = scenario.faults(settings.quick());
            for (int i = 1; i <= faults; i++) {
                Sql.sleepUntil(start + settings.load().toNanos() * i / (faults + 1));
                inject(i);
            }
            Sql.sleepUntil(start + settings.load().toNanos());
            List<String> problems = new ArrayList<>(recoveryProblems);
            if (!load.stop(RECOVERY_TIMEOUT)) {
                problems.add("requests still unanswered " + RECOVERY_TIMEOUT.toSeconds() + " s after the load");
            }
            long loadEnd = System.nanoTime();
            double loadSeconds = (loadEnd - start) / 1e9;
            if (!awaitDrained(settings.lease().plus(RECOVERY_TIMEOUT))) {
                problems.add("the queue did not drain within " + settings.lease().plus(RECOVERY_TIMEOUT).toSeconds() + " s");
            }
            double drainSeconds = (System.nanoTime() - loadEnd) / 1e9;
            return result(faults, loadSeconds, drainSeconds, problems);
        }
    }

    private void inject(int n) throws Exception {
        long at = System.nanoTime();
        LOG.info("{}: fault {} of {}", scenario.id(), n, scenario.faults(settings.quick()));
        switch (scenario) {
            case CRASH_CONSUMER -> {
                stack.killAndRestart(Stack.Role.CONSUMER, 0, () -> duplicateBound += leasedTasks());
                awaitProgress(at, this::processedCount);
            }
            case CRASH_PRODUCER -> {
                stack.killAndRestart(Stack.Role.PRODUCER, 0, () -> { });
                awaitProgress(at, load::acknowledgedCount);
            }
            case CONNECTION_KILL -> {
                // Only the stack's databases: on an external server, other users' sessions are left alone.
                long killed = Sql.longOf(stack.connect(), "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
                        + " AND datname IN (current_database(), '" + Stack.RESULTS_DATABASE + "')");
                LOG.info("{}: terminated {} backends", scenario.id(), killed);
                awaitProgress(at, this::processedCount);
                awaitProgress(at, load::acknowledgedCount);
            }
            case LOCK_WAIT -> {
                try (Connection c = stack.connect()) {
                    c.setAutoCommit(false);
                    try (Statement st = c.createStatement()) {
                        st.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
                    }
                    LOG.info("{}: {} locked for {} s", scenario.id(), table, LOCK_HELD.toSeconds());
                    Thread.sleep(LOCK_HELD.toMillis()); // the lock held is the fault itself
                    c.commit();
                }
                awaitProgress(at, this::processedCount);
                awaitProgress(at, load::acknowledgedCount);
            }
            case CRASH_DATABASE -> {
                server.crash();
                LOG.info("{}: PostgreSQL stopped (immediate), down for {} s", scenario.id(), DATABASE_DOWNTIME.toSeconds());
                Thread.sleep(DATABASE_DOWNTIME.toMillis()); // the outage itself
                server = server.restart();
                awaitProgress(at, this::processedCount);
                awaitProgress(at, load::acknowledgedCount);
            }
        }
    }

    /** Waits until {@code progress} moves past where it is now; the time since {@code faultAt} is a recovery time. */
    private void awaitProgress(long faultAt, LongSupplier progress) throws InterruptedException {
        long deadline = System.nanoTime() + RECOVERY_TIMEOUT.toNanos();
        long before = progress.getAsLong();
        while (before < 0 && System.nanoTime() < deadline) { // no reading while the database comes back
            Thread.sleep(POLL_MILLIS);
            before = progress.getAsLong();
        }
        while (progress.getAsLong() <= before && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
        }
        if (progress.getAsLong() <= before) {
            recoveryProblems.add("no progress " + RECOVERY_TIMEOUT.toSeconds() + " s after a fault");
        }
        recoverySeconds = Math.max(recoverySeconds, (System.nanoTime() - faultAt) / 1e9);
    }

    /** At least once: tasks leased and unfinished, which a kill of their consumer may run twice. */
    private long leasedTasks() {
        if (!settings.mode().equals("at-least-once")) {
            return 0;
        }
        try {
            return Sql.longOf(stack.connect(), "SELECT count(*) FROM " + table + " WHERE queue_name = '" + QUEUE + "'"
                    + " AND attempt > 0 AND next_process_at > now()");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count leased tasks: " + e.getMessage(), e);
        }
    }

    private boolean awaitDrained(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Sql.longOf(stack.connect(), "SELECT count(*) FROM " + table + " WHERE queue_name = '" + QUEUE + "'") > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MILLIS * 4);
        }
        // The last reports are delivered before their tasks are deleted: processed is complete now.
        return true;
    }

    private FaultResult result(int faults, double loadSeconds, double drainSeconds, List<String> problems) throws SQLException {
        ProcessedMessages reported;
        try (Connection c = stack.connectResults()) {
            reported = ProcessedMessages.read(c, runId);
        }
        Set<Long> processed = reported.ids();
        long duplicates = reported.duplicates();
        Set<Long> acknowledged = load.acknowledged();
        boolean exactlyOnce = settings.mode().equals("exactly-once");
        long duplicateEffects = -1;
        long lost = reported.lostOf(acknowledged);
        if (exactlyOnce) {
            // Exactly once, a report leaves before the commit: what counts is the effect committed with the task.
            Effects effects = effects(acknowledged);
            duplicateEffects = effects.duplicates();
            lost = acknowledged.size() - effects.committed();
        }
        long unknown = processed.stream().filter(id -> !acknowledged.contains(id)).count();
        long bound = !exactlyOnce && scenario == FaultScenario.CRASH_CONSUMER ? duplicateBound : -1;
        if (lost > 0) {
            problems.add(lost + " acknowledged messages never processed");
        }
        if (unknown > 0) {
            problems.add(unknown + " processed messages were never acknowledged (a request stored twice?)");
        }
        if (load.duplicateIds() > 0) {
            problems.add(load.duplicateIds() + " ids answered for two different requests");
        }
        if (duplicateEffects > 0) {
            problems.add(duplicateEffects + " duplicate effects in exactly-once mode");
        }
        if (bound >= 0 && duplicates > bound) {
            problems.add(duplicates + " duplicates exceed the " + bound + " tasks leased at the kills");
        }
        if (exactlyOnce && duplicates > 0) {
            LOG.info("{}: {} messages reported twice in exactly-once mode: their first transaction was cut by the"
                    + " kill after the report and rolled back; the effects count says whether any ran twice", scenario.id(),
                    duplicates);
        }
        return new FaultResult(scenario.id(), settings.mode(), load.messagesSent(), acknowledged.size(),
                load.unanswered(), load.storedThoughUnanswered(), processed.size() - unknown, duplicates, bound,
                duplicateEffects, lost, faults, loadSeconds, recoverySeconds, drainSeconds, problems);
    }

    /** How many of {@code ids} had their effect committed, and how many effects beyond one there were. */
    private record Effects(long committed, long duplicates) {
    }

    private Effects effects(Set<Long> ids) throws SQLException {
        try (Connection c = stack.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT count(*), coalesce(sum(times - 1), 0) FROM consumer_effect WHERE task_id = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Effects(rs.getLong(1), rs.getLong(2));
            }
        }
    }

    private long processedCount() {
        try (Connection c = stack.connectResults()) {
            return ProcessedMessages.count(c, runId);
        } catch (SQLException e) {
            return -1; // the database is being disrupted: no progress seen yet
        }
    }

}
