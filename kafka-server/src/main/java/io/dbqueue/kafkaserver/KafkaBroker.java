package io.dbqueue.kafkaserver;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A Kafka broker in its own JVM, started from the classes of this one ({@code java.class.path}:
 * the bench jar, or a test classpath, with this module's Kafka server jar), so that its threads,
 * heap and GC do not share the caller's JVM while nothing needs to be installed. In {@code dir}:
 * server.properties ({@link KafkaServerProperties}), {@code data/} (formatted with a fresh cluster
 * id before the start, deleted by {@link #close}) and {@code broker.log}, the output of the format
 * tool and the broker at INFO level. Closing sends SIGTERM, on which the broker shuts down cleanly.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final String HEAP = "-Xmx1g";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int CONNECT_TIMEOUT_MILLIS = 500;
    private static final long RETRY_MILLIS = 200;

    private final Process process;
    private final KafkaServerProperties properties;
    private final Path log;

    private KafkaBroker(Process process, KafkaServerProperties properties, Path log) {
        this.process = process;
        this.properties = properties;
        this.log = log;
    }

    /** Formats and starts a broker in {@code dir}; returns once it answers clients, or fails within {@code timeout}. */
    public static KafkaBroker start(Path dir, Duration timeout) throws IOException, InterruptedException {
        try {
            Class.forName("kafka.Kafka", false, KafkaBroker.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the Kafka server classes (kafka.Kafka) are not on the classpath");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        int[] ports = freePorts(2);
        KafkaServerProperties properties = new KafkaServerProperties(ports[0], ports[1], dir.resolve("data"));
        Path config = Files.writeString(dir.resolve("server.properties"), properties.text());
        Path log = dir.resolve("broker.log");
        format(config, log, deadline);
        KafkaBroker broker = new KafkaBroker(java(log, "kafka.Kafka", config.toString()).start(), properties, log);
        try {
            broker.awaitReady(deadline);
            return broker;
        } catch (IOException | InterruptedException | RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return properties.bootstrapServers();
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    /** KRaft needs its metadata directory formatted with a cluster id before the first start. */
    private static void format(Path config, Path log, long deadline) throws IOException, InterruptedException {
        Process format = java(log, "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString()).start();
        if (!format.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting the Kafka broker's storage did not finish in time; see " + log);
        }
        if (format.exitValue() != 0) {
            throw new IllegalStateException("formatting the Kafka broker's storage failed (exit " + format.exitValue()
                    + "); see " + log);
        }
    }

    /** {@code java -cp <this JVM's classpath> main arguments}, its output appended to {@code log}. */
    private static ProcessBuilder java(Path log, String main, String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), HEAP, "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    /**
     * Waits for the listener to take connections (quietly: a client would log a warning per refused
     * connection), then for the broker to answer a client's describeCluster.
     */
    private void awaitReady(long deadline) throws IOException, InterruptedException {
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Kafka broker exited (" + process.exitValue() + ") while starting; see "
                        + log);
            }
            if (System.nanoTime() > deadline) {
                throw notReady();
            }
            Thread.sleep(RETRY_MILLIS);
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.describeCluster().nodes().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw notReady();
        }
    }

    private IllegalStateException notReady() {
        return new IllegalStateException("the Kafka broker did not come up in time; see " + log);
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), properties.brokerPort()),
                    CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Distinct free loopback ports: all are held open until each is known. */
    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    /** Stops the broker and deletes its data; the log stays. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        if (Files.exists(properties.dataDir())) {
            try (Stream<Path> files = Files.walk(properties.dataDir())) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
