package io.dbqueue.bench.cli;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.PostgresVersion;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** {@code --jdbc-url}, {@code --pg-version} and {@code --pg-setting}: the PostgreSQL a command measures. */
final class ServerOption {

    private static final Pattern SETTING_NAME = Pattern.compile("[a-z_][a-z0-9_.]*");

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "External PostgreSQL instead of the embedded one (user from DBQ_JDBC_USER, default postgres;"
                    + " password from DBQ_JDBC_PASSWORD). Default: DBQ_JDBC_URL, else an embedded durable PostgreSQL.")
    String jdbcUrl;

    @Option(names = "--pg-version", paramLabel = "MAJOR",
            description = "Major version of the embedded server: 18 (default) or 15, both stock and durable."
                    + " An external server is the version it is.")
    Integer pgVersion;

    @Option(names = "--pg-setting", paramLabel = "NAME=VALUE",
            description = "A setting of the embedded server, repeatable, e.g. --pg-setting shared_buffers=1GB;"
                    + " the environment block records it. An external server keeps its own settings.")
    Map<String, String> settings = new LinkedHashMap<>();

    /** The server to measure; {@code profile} applies to the embedded one only. */
    PostgresServer connect(ServerProfile profile) {
        PostgresVersion version = version();
        String url = jdbcUrl != null ? jdbcUrl : System.getenv(PostgresServer.JDBC_URL_ENV);
        if (url == null || url.isBlank()) {
            return PostgresServer.embedded(version, profile, checkedSettings());
        }
        return external(url, jdbcUrl != null ? "--jdbc-url " : PostgresServer.JDBC_URL_ENV + "=", profile);
    }

    private Map<String, String> checkedSettings() {
        for (String name : settings.keySet()) {
            if (!SETTING_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("--pg-setting: '" + name + "' is not a PostgreSQL setting name");
            }
        }
        return settings;
    }

    /** The server at {@code url}, which {@code source} (the option or variable, as written before the URL) named. */
    private PostgresServer external(String url, String source, ServerProfile profile) {
        if (pgVersion != null) {
            throw new IllegalArgumentException("--pg-version applies to the embedded server only, not with "
                    + source + url
                    + ": an external server is the version it is");
        }
        if (!settings.isEmpty()) {
            throw new IllegalArgumentException("--pg-setting applies to the embedded server only; set "
                    + settings.keySet() + " on the server at " + url + " instead");
        }
        if (profile != ServerProfile.STOCK) {
            throw new IllegalArgumentException("server profile " + profile.label() + " applies to the embedded server"
                    + " only; the server at " + url + " keeps its own settings, which the environment block records");
        }
        String user = System.getenv().getOrDefault(PostgresServer.USER_ENV, "postgres");
        String password = System.getenv().getOrDefault(PostgresServer.PASSWORD_ENV, "");
        return PostgresServer.external(url, user, password);
    }

    /**
     * The run's {@code count} shards: the servers at {@code urls}, else embedded ones as {@link #connect} starts
     * (so with the same settings). {@code --jdbc-url} does not go with shards: the first shard is the run's server.
     */
    List<PostgresServer> connectShards(ServerProfile profile, int count, List<String> urls) {
        if (jdbcUrl != null) {
            throw new IllegalArgumentException("--jdbc-url does not go with --shards: the first shard is the run's"
                    + " server; give the shards' URLs with --shard-url");
        }
        List<PostgresServer> servers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                if (urls.isEmpty()) {
                    servers.add(PostgresServer.embedded(version(), profile, checkedSettings()));
                } else {
                    servers.add(external(urls.get(i), "shard URL ", profile));
                }
            }
            return servers;
        } catch (RuntimeException e) {
            servers.forEach(PostgresServer::close);
            throw e;
        }
    }

    private PostgresVersion version() {
        if (pgVersion == null) {
            return PostgresVersion.PG18;
        }
        try {
            return PostgresVersion.of(pgVersion);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--pg-version: " + e.getMessage(), e);
        }
    }
}
