package io.dbqueue.bench.environment;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a bench run ran: hardware, operating system, JDK, PostgreSQL and its durability settings, project commit;
 * with {@code --shards}, each shard's server by its name in the shard set (the first is {@code postgres} too); the
 * brokers its drivers measured, by driver, as each named itself (product, version, where), absent when none did
 * (and in results written before they were recorded).
 */
public record Environment(Cpu cpu, long memoryBytes, Os os, Jdk jdk, Postgres postgres, String gitCommit,
                          Boolean gitDirty, @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Postgres> shards,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> servers) {

    /** A run without shards. */
    public Environment(Cpu cpu, long memoryBytes, Os os, Jdk jdk, Postgres postgres, String gitCommit,
                       Boolean gitDirty) {
        this(cpu, memoryBytes, os, jdk, postgres, gitCommit, gitDirty, null, null);
    }

    /** This environment with the brokers measured; none leaves it without. */
    public Environment withServers(Map<String, String> measured) {
        return new Environment(cpu, memoryBytes, os, jdk, postgres, gitCommit, gitDirty, shards,
                measured.isEmpty() ? null : Collections.unmodifiableSortedMap(new TreeMap<>(measured)));
    }

    public record Cpu(String model, int cores) {
    }

    public record Os(String name, String version, String arch, String distribution) {
    }

    public record Jdk(String version, String vendor, String vm) {
    }

    /**
     * @param settings            SHOW of each of {@link EnvironmentProbe#SETTINGS}
     * @param nonDefaultSettings  every setting the server took from somewhere other than PostgreSQL's built-in
     *                            default (a configuration file, the command line, ALTER DATABASE ...), by name;
     *                            null in results written before they were recorded (and left out when written again)
     * @param storage             an embedded server's data directory: its file system's type and device, "ext4 on
     *                            /dev/vda" (a flush costs what that disk takes; on tmpfs it costs nothing); null for
     *                            an external server, whose disk the lab cannot see
     */
    public record Postgres(String version, boolean embedded, String jdbcUrl, Map<String, String> settings,
                           @JsonInclude(JsonInclude.Include.NON_NULL) List<Setting> nonDefaultSettings,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String storage) {
    }

    /**
     * One row of pg_settings.
     *
     * @param setting        as SHOW prints it, unit included
     * @param source         where it came from: configuration file, command line, database, user, ...
     * @param matchesDefault the value is PostgreSQL's built-in default all the same (boot_val), set explicitly
     */
    public record Setting(String name, String setting, String source, boolean matchesDefault) {
    }
}
