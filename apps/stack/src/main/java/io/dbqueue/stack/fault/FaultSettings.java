package io.dbqueue.stack.fault;

import io.dbqueue.stack.StackOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a fault scenario runs.
 *
 * @param mode   the consumers' delivery mode: at-least-once or exactly-once
 * @param load   how long the clients send
 * @param rate   messages per second over all clients
 * @param lease  the consumers' lease (the time a killed consumer's tasks wait)
 * @param quick  the shortened variant: fewer faults
 * @param table  the queue table's layout preset
 * @param jdbcUrl an external PostgreSQL, or null for an embedded one the scenario owns
 * @param logDir where the services' logs go, one folder per scenario
 */
public record FaultSettings(String mode, Duration load, int rate, Duration lease, boolean quick, String table,
                            String jdbcUrl, String jdbcUser, String jdbcPassword, Path logDir) {

    static final List<String> MODES = List.of("at-least-once", "exactly-once");

    public FaultSettings {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("mode must be one of " + MODES + ", was '" + mode + "'");
        }
        if (load.toSeconds() < 5) {
            throw new IllegalArgumentException("load must be at least 5 s, was " + load);
        }
        if (rate < 10) {
            throw new IllegalArgumentException("rate must be at least 10 messages per second, was " + rate);
        }
    }

    /**
     * The stack every scenario runs: one producer-app, one consumer-app with 4 worker threads and the
     * lease, test-app; logs under {@code logDir/<scenario>}; {@code env} added to the services'.
     */
    StackOptions stack(String scenario, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(Map.of("LEASE_TIMEOUT", lease.toMillis() + "ms"));
        all.putAll(env);
        return StackOptions.builder().producers(1).consumers(1).consumerThreads(4).table(table).mode(mode)
                .jdbc(jdbcUrl, jdbcUser, jdbcPassword).serviceEnv(all).logDir(logDir.resolve(scenario)).build();
    }
}
