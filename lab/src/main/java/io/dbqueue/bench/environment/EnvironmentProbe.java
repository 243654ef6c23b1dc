package io.dbqueue.bench.environment;

import io.dbqueue.bench.driver.Shard;
import io.dbqueue.postgres.PostgresServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Captures the {@link Environment} of this machine and server. Missing facts become "unknown", never an error. */
public final class EnvironmentProbe {

    public static final List<String> SETTINGS = List.of("fsync", "synchronous_commit", "full_page_writes",
            "shared_buffers", "wal_level", "max_wal_size", "checkpoint_timeout", "max_connections",
            "autovacuum", "autovacuum_naptime", "track_wal_io_timing", "data_checksums");
    /**
     * The server's own settings that are not at their built-in defaults. Left out: the values this connection
     * set (client, session) and those the server sets for itself at start (override: file locations, the
     * transaction defaults). initdb's choice of data_checksums does not show as a source, so it is in {@link #SETTINGS}.
     */
    static final String NON_DEFAULT_SETTINGS = "SELECT name, current_setting(name), source, setting IS NOT DISTINCT FROM"
            + " boot_val FROM pg_settings WHERE source NOT IN ('default', 'override', 'client', 'session') ORDER BY name";
    private static final String UNKNOWN = "unknown";

    private EnvironmentProbe() {
    }

    /** This machine and server; {@code extraSettings} are shown besides {@link #SETTINGS}. */
    public static Environment capture(PostgresServer server, Path projectDir, Collection<String> extraSettings)
            throws SQLException {
        return capture(server, projectDir, extraSettings, List.of());
    }

    /** As {@link #capture(PostgresServer, Path, Collection)}, with each shard's server and settings. */
    public static Environment capture(PostgresServer server, Path projectDir, Collection<String> extraSettings,
                                      List<Shard> shards) throws SQLException {
        Map<String, Environment.Postgres> byShard = new LinkedHashMap<>();
        for (Shard shard : shards) {
            byShard.put(shard.name(), postgres(shard.server(), extraSettings));
        }
        return new Environment(
                new Environment.Cpu(cpuModel(), Runtime.getRuntime().availableProcessors()),
                memoryBytes(),
                new Environment.Os(System.getProperty("os.name"), System.getProperty("os.version"),
                        System.getProperty("os.arch"), distribution()),
                new Environment.Jdk(System.getProperty("java.version"), System.getProperty("java.vendor"),
                        System.getProperty("java.vm.name")),
                postgres(server, extraSettings),
                headCommit(projectDir),
                gitDirty(projectDir),
                byShard.isEmpty() ? null : byShard, null);
    }

    private static Environment.Postgres postgres(PostgresServer server, Collection<String> extraSettings)
            throws SQLException {
        Map<String, String> settings = new LinkedHashMap<>();
        List<Environment.Setting> nonDefault = new ArrayList<>();
        String version;
        String storage = null;
        try (Connection c = server.connect(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW server_version")) {
                rs.next();
                version = rs.getString(1);
            }
            if (server.isEmbedded()) {
                try (ResultSet rs = st.executeQuery("SHOW data_directory")) {
                    rs.next();
                    storage = storage(Path.of(rs.getString(1)));
                }
            }
            Set<String> names = new LinkedHashSet<>(SETTINGS);
            names.addAll(extraSettings);
            for (String setting : names) {
                try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
                    rs.next();
                    settings.put(setting, rs.getString(1));
                }
            }
            try (ResultSet rs = st.executeQuery(NON_DEFAULT_SETTINGS)) {
                while (rs.next()) {
                    nonDefault.add(new Environment.Setting(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getBoolean(4)));
                }
            }
        }
        // results are committed: a password in the URL must not be
        String url = server.jdbcUrl().replaceAll("(?i)password=[^&]*", "password=***");
        return new Environment.Postgres(version, server.isEmbedded(), url, settings, nonDefault, storage);
    }

    /** The file system {@code dir} is on: "ext4 on /dev/vda", or "unknown". */
    static String storage(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            return store.type() + " on " + store.name();
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    private static String cpuModel() {
        return procLine("/proc/cpuinfo", "model name");
    }

    private static long memoryBytes() {
        String kb = procLine("/proc/meminfo", "MemTotal").replaceAll("[^0-9]", "");
        return kb.isEmpty() ? 0 : Long.parseLong(kb) * 1024;
    }

    private static String distribution() {
        String pretty = procLine("/etc/os-release", "PRETTY_NAME=");
        return pretty.replace("\"", "");
    }

    /** The value after the first line of {@code file} that starts with {@code key} (after ':' or '='). */
    private static String procLine(String file, String key) {
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (line.startsWith(key)) {
                    int sep = key.endsWith("=") ? key.length() - 1 : line.indexOf(':');
                    return line.substring(sep + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    /** The commit checked out in {@code projectDir}, as the environment block records it, or "unknown". */
    public static String headCommit(Path projectDir) {
        return git(projectDir, "rev-parse", "HEAD");
    }

    private static Boolean gitDirty(Path projectDir) {
        String status = git(projectDir, "status", "--porcelain", "--untracked-files=no");
        return UNKNOWN.equals(status) ? null : !status.isEmpty();
    }

    private static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return UNKNOWN;
            }
            return output;
        } catch (IOException e) {
            return UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN;
        }
    }
}
