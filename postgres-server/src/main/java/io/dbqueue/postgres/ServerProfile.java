package io.dbqueue.postgres;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The settings the embedded server runs with beyond {@link PostgresServer#DURABLE_SETTINGS}. Our
 * users run stock settings, so stock is the default and every figure names the profile it ran on.
 */
public enum ServerProfile {

    /** PostgreSQL's own defaults: autovacuum wakes once a minute, as on stock servers and managed services. */
    STOCK(Map.of()),
    /** Autovacuum wakes every second, as a queue's churn of dead rows would like; what the lab's figures up to
     *  the stock-server change ran on. */
    TUNED(Map.of("autovacuum_naptime", "1s"));

    private final Map<String, String> settings;

    ServerProfile(Map<String, String> settings) {
        this.settings = settings;
    }

    public Map<String, String> settings() {
        return settings;
    }

    /** The name as flags and workload files spell it: stock, tuned. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ServerProfile named(String label) {
        return Arrays.stream(values()).filter(p -> p.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("server profile must be one of "
                        + Arrays.stream(values()).map(ServerProfile::label).toList() + ", was '" + label + "'"));
    }
}
