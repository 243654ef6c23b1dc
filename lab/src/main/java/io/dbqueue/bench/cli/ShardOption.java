package io.dbqueue.bench.cli;

import io.dbqueue.bench.workload.DriverName;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@code --shards} and {@code --shard-url}: the servers a run's sharded cells spread their queues over. */
final class ShardOption {

    /** The shards' JDBC URLs, comma-separated, when {@code --shard-url} is not given. */
    static final String URLS_ENV = "DBQ_SHARD_URLS";

    @Option(names = "--shards", paramLabel = "N",
            description = "Runs the queue over a shard set too: starts N embedded PostgreSQL servers (1 to "
                    + DriverName.MAX_SHARDS + ", each with the settings of the single one), or takes the N of"
                    + " --shard-url, and adds the drivers sharded-1..sharded-N (unless --drivers names some):"
                    + " one queue on each of 1..N shards through ShardedDbQueue, the same total producers and"
                    + " consumers in every cell. The first shard is the server of the other drivers.")
    Integer shards;

    @Option(names = "--shard-url", split = ",", paramLabel = "URL",
            description = "With --shards N: the N shards' JDBC URLs instead of embedded servers (user and password"
                    + " from DBQ_JDBC_USER, DBQ_JDBC_PASSWORD). Default: " + URLS_ENV + " (comma-separated).")
    List<String> urls;

    /** How many shards the run has; 0 without {@code --shards}. */
    int count() {
        if (shards == null) {
            if (urls != null) {
                throw new IllegalArgumentException("--shard-url needs --shards N, N the number of URLs");
            }
            return 0;
        }
        if (shards < 1 || shards > DriverName.MAX_SHARDS) {
            throw new IllegalArgumentException("--shards must be between 1 and " + DriverName.MAX_SHARDS
                    + ", was " + shards);
        }
        return shards;
    }

    /** The external shards' URLs, empty for embedded ones. */
    List<String> urls() {
        return urls(count(), urls, System.getenv(URLS_ENV));
    }

    /** {@code option}, else {@code env} split at commas; its count must be {@code shards}; empty when neither is given. */
    static List<String> urls(int shards, List<String> option, String env) {
        List<String> given = option != null ? option
                : env == null || env.isBlank() ? List.of()
                : Arrays.stream(env.split(",", -1)).map(String::trim).toList();
        if (shards == 0 || given.isEmpty()) {
            return List.of();
        }
        if (given.size() != shards || given.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("--shards " + shards + " needs " + shards + " JDBC URLs, "
                    + (option != null ? "--shard-url" : URLS_ENV) + " gives " + given.size() + ": " + given);
        }
        return List.copyOf(given);
    }

    /**
     * {@code drivers} with sharded-1..sharded-{@code shards} added when they name no sharded driver; an
     * IllegalArgumentException when one needs more shards than the run has.
     */
    static List<DriverName> withShardDrivers(List<DriverName> drivers, int shards) {
        for (DriverName driver : drivers) {
            if (driver.shards() > shards) {
                throw new IllegalArgumentException("driver " + driver + " needs --shards " + driver.shards()
                        + " or more" + (shards == 0 ? "" : ", was " + shards));
            }
        }
        if (shards == 0 || drivers.stream().anyMatch(d -> d.shards() > 0)) {
            return drivers;
        }
        List<DriverName> all = new ArrayList<>(drivers);
        for (int count = 1; count <= shards; count++) {
            all.add(DriverName.sharded(count));
        }
        return all;
    }
}
