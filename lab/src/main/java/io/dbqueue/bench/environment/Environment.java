package io.dbqueue.bench.environment;

import java.util.Map;

/** Where a bench run ran: hardware, operating system, JDK, PostgreSQL and its durability settings, project commit. */
public record Environment(Cpu cpu, long memoryBytes, Os os, Jdk jdk, Postgres postgres, String gitCommit,
                          Boolean gitDirty) {

    public record Cpu(String model, int cores) {
    }

    public record Os(String name, String version, String arch, String distribution) {
    }

    public record Jdk(String version, String vendor, String vm) {
    }

    /** @param settings SHOW of each of {@link EnvironmentProbe#SETTINGS} */
    public record Postgres(String version, boolean embedded, String jdbcUrl, Map<String, String> settings) {
    }
}
