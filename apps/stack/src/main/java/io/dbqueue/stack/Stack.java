package io.dbqueue.stack;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The experiment's system on this machine, without Docker: a PostgreSQL (embedded and durable, or
 * external) holding the queue table and the results database, and producer-app, consumer-app and
 * test-app as separate JVMs on 127.0.0.1. {@link #start} returns when every service is healthy;
 * {@link #close} stops producers, then consumers (so their last statistics still reach test-app),
 * then test-app, each with SIGTERM and forcibly after a timeout, and then the database.
 */
public final class Stack implements AutoCloseable {

    /**
     * Each consumer serves the dashboard at {@code /dbqueue} on its endpoint {@code dbqueue}, writes on: the stack
     * listens on 127.0.0.1 only.
     */
    static final Map<String, String> DASHBOARD = Map.of("MANAGEMENT_ENDPOINTS", "health,dbqueue",
            "DBQ_DASHBOARD_ENABLED", "true", "DBQ_ENDPOINT_WRITEENABLED", "true");


    public static final String RESULTS_DATABASE = "dbq_results";
    private static final Logger LOG = LoggerFactory.getLogger(Stack.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final StackOptions options;
    private final PostgresServer database;
    private final List<ServiceProcess> producers = new ArrayList<>();
    private final List<ServiceProcess> consumers = new ArrayList<>();
    private ServiceProcess testApp;
    private String resultsUrl;
    private final Thread shutdownHook = new Thread(this::stopAll, "stack-stop");
    private boolean closed;

    private Stack(StackOptions options, PostgresServer database) {
        this.options = options;
        this.database = database;
    }

    public static Stack start(StackOptions options) {
        PostgresServer database = options.jdbcUrl() == null ? PostgresServer.start()
                : PostgresServer.external(options.jdbcUrl(), options.jdbcUser(), options.jdbcPassword());
        Stack stack = new Stack(options, database);
        Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
        try {
            stack.startServices();
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        } catch (InterruptedException e) {
            stack.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the stack", e);
        }
    }

    public String testAppUrl() {
        return testApp.url();
    }

    public List<String> producerUrls() {
        return producers.stream().map(ServiceProcess::url).toList();
    }

    public List<String> consumerUrls() {
        return consumers.stream().map(ServiceProcess::url).toList();
    }

    /** Each running service's process id, by name (producer-app-1, consumer-app-1, test-app). */
    public synchronized Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        services().forEach(service -> pids.put(service.name(), service.pid()));
        return pids;
    }

    /** The folder of the services' logs, {@code <name>.log} each. */
    public Path logDir() {
        return options.logDir();
    }

    public String jdbcUrl() {
        return database.jdbcUrl();
    }

    /** A connection to the queue's database. */
    public Connection connect() throws SQLException {
        return database.connect();
    }

    /** The dashboard of each consumer. */
    public List<String> dashboardUrls() {
        return consumerUrls().stream().map(url -> url + "/dbqueue").toList();
    }

    public StackOptions options() {
        return options;
    }

    private void startServices() throws InterruptedException {
        createQueueTable();
        resultsUrl = database.createDatabase(RESULTS_DATABASE);
        try {
            Files.createDirectories(options.logDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Integer> free = freePorts(1 + options.producers() + options.consumers());
        int testAppPort = port(8080, 0, free);
        List<Integer> producerPorts = new ArrayList<>();
        for (int i = 0; i < options.producers(); i++) {
            producerPorts.add(port(8070, i, free));
        }
        String producerUrls = producerPorts.stream().map(p -> "http://127.0.0.1:" + p).collect(Collectors.joining(","));

        Map<String, String> queueEnv = queueEnvironment();
        for (int i = 0; i < options.producers(); i++) {
            producers.add(start("producer-app-" + (i + 1), "producer-app", producerPorts.get(i), queueEnv));
        }
        Map<String, String> consumerEnv = new HashMap<>(queueEnv);
        consumerEnv.put("CONSUMER_THREADS", Integer.toString(options.consumerThreads()));
        consumerEnv.put("PROCESSING_MODE", options.mode());
        consumerEnv.put("TEST_APP_URL", "http://127.0.0.1:" + testAppPort);
        consumerEnv.putAll(statsEnvironment());
        consumerEnv.putAll(DASHBOARD);
        for (int i = 0; i < options.consumers(); i++) {
            consumers.add(start("consumer-app-" + (i + 1), "consumer-app", port(8090, i, free), consumerEnv));
        }
        Map<String, String> testAppEnv = new HashMap<>(statsEnvironment());
        testAppEnv.put("TEST_DB_URL", resultsUrl);
        testAppEnv.put("TEST_DB_USERNAME", database.user());
        testAppEnv.put("TEST_DB_PASSWORD", database.password());
        testAppEnv.put("PRODUCERS_URLS", producerUrls);
        testAppEnv.put("MESSAGES_PER_REQUEST", Integer.toString(options.messagesPerRequest()));
        testAppEnv.put("TEST_CONCURRENCY", Integer.toString(options.concurrency()));
        testApp = start("test-app", "test-app", testAppPort, testAppEnv);

        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        for (ServiceProcess service : services()) {
            service.awaitHealthy(deadline);
            LOG.info("{} is up at {}", service.name(), service.url());
        }
    }

    private ServiceProcess start(String name, String jarName, int port, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.putAll(options.serviceEnv());
        return ServiceProcess.start(name, options.jar(jarName), port, all, options.jvmArgs(), options.logDir());
    }

    /** The role of a service that {@link #killAndRestart} can crash. */
    public enum Role { PRODUCER, CONSUMER }

    /**
     * Kills service {@code index} of {@code role} with SIGKILL, starts it again with the same settings,
     * and returns once it is healthy. {@code whileDown} runs between the kill and the restart.
     */
    public synchronized void killAndRestart(Role role, int index, Runnable whileDown) throws InterruptedException {
        List<ServiceProcess> group = role == Role.PRODUCER ? producers : consumers;
        ServiceProcess killed = group.get(index);
        killed.kill();
        LOG.info("killed {} (SIGKILL)", killed.name());
        whileDown.run();
        ServiceProcess restarted = killed.restart();
        group.set(index, restarted);
        restarted.awaitHealthy(System.nanoTime() + STARTUP_TIMEOUT.toNanos());
        LOG.info("{} is up again at {}", restarted.name(), restarted.url());
    }

    /** A connection to the results database, where test-app keeps runs and statistics. */
    public Connection connectResults() throws SQLException {
        return DriverManager.getConnection(resultsUrl, database.user(), database.password());
    }

    /** The PostgreSQL under the stack: embedded and owned by it, or external. */
    public PostgresServer database() {
        return database;
    }

    private Map<String, String> queueEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("DB_URL", database.jdbcUrl());
        env.put("DB_USERNAME", database.user());
        env.put("DB_PASSWORD", database.password());
        env.put("DB_QUEUE_LOCATION", options.table());
        env.put("BATCH_SIZE", Integer.toString(options.batchSize()));
        return env;
    }

    /** RABBIT_HOST switches the services to RabbitMQ; an empty one keeps them on HTTP whatever the launcher's environment says. */
    private Map<String, String> statsEnvironment() {
        String host = System.getenv().getOrDefault("RABBIT_HOST", "");
        boolean rabbit = options.statsTransport().equals("rabbitmq");
        return Map.of("RABBIT_HOST", rabbit ? (host.isBlank() ? "127.0.0.1" : host) : "");
    }

    /** The experiment's port, or the next of {@code free}. */
    private int port(int experimentBase, int index, List<Integer> free) {
        return options.experimentPorts() ? experimentBase + index : free.remove(0);
    }

    /**
     * {@code n} distinct free ports, all held open until every one is chosen: a port asked for
     * alone and let go could come back for the next service, and two services on one port made a
     * dead consumer-app look healthy (its health check reached test-app).
     */
    private static List<Integer> freePorts(int n) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket socket = new ServerSocket(0);
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a listening socket that never accepted
                }
            }
        }
    }

    private void createQueueTable() {
        QueueTable table = new QueueTable(options.table(), Layout.named(options.table()));
        try (HikariDataSource dataSource = database.dataSource(1)) {
            if (!exists(dataSource, table.name())) {
                Schema.create(dataSource, table);
                LOG.info("created queue table {} ({})", table.name(), table.layout().name());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create queue table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    private static boolean exists(HikariDataSource dataSource, String table) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private List<ServiceProcess> services() {
        List<ServiceProcess> all = new ArrayList<>(producers);
        all.addAll(consumers);
        if (testApp != null) {
            all.add(testApp);
        }
        return all;
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it stops the same things
        }
    }

    private synchronized void stopAll() {
        if (closed) {
            return;
        }
        closed = true;
        // a caller's interrupt would cut the waits short and leave the later services running on a closed database:
        // cleared for the stops, then set again
        boolean interrupted = Thread.interrupted();
        try {
            for (List<ServiceProcess> group : List.of(producers, consumers,
                    testApp == null ? List.<ServiceProcess>of() : List.of(testApp))) {
                interrupted |= stop(group);
            }
        } finally {
            database.close();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops {@code group}, each killed if it does not stop in time; returns whether an interrupt cut the wait short. */
    private static boolean stop(List<ServiceProcess> group) {
        group.forEach(ServiceProcess::terminate);
        for (ServiceProcess service : group) {
            try {
                if (!service.awaitExit(STOP_TIMEOUT)) {
                    LOG.warn("{} did not stop within {}; killed it", service.name(), STOP_TIMEOUT);
                }
            } catch (InterruptedException e) {
                group.forEach(ServiceProcess::killNow);
                group.forEach(ServiceProcess::awaitKilled); // gone before the database closes under them
                return true;
            }
        }
        return false;
    }
}
