package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.driver.Env;
import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.kafkaserver.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.internals.AppInfoParser;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one Kafka broker of a bench run, shared by {@code kafka} and {@code kafka-fsync}: the user's
 * when KAFKA_BOOTSTRAP_SERVERS names one, else one the lab starts when the first of their cells asks
 * whether it can run (so that a run without them starts nothing) and stops when the JVM exits. A
 * broker that failed to start or answer is not tried again: its reason skips the other driver's
 * cells at once instead of after another timeout.
 */
final class KafkaSharedBroker {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final String EXTERNAL = Env.or("KAFKA_BOOTSTRAP_SERVERS", null);

    private static KafkaBroker broker;
    private static String failure;
    private static boolean externalChecked;

    private KafkaSharedBroker() {
    }

    /** Starts the broker (or checks the user's) unless that was tried already; returns why it is not running, or null. */
    static synchronized String unavailableReason() {
        if (EXTERNAL != null) {
            if (!externalChecked) {
                externalChecked = true;
                failure = unreachable(EXTERNAL);
            }
            return failure;
        }
        if (broker == null && failure == null) {
            try {
                broker = KafkaBroker.start(Files.createTempDirectory("bench-kafka-"), STARTUP_TIMEOUT);
                Runtime.getRuntime().addShutdownHook(new Thread(KafkaSharedBroker::stop, "bench-kafka-stop"));
                System.err.println("bench: Kafka " + AppInfoParser.getVersion() + " broker (KRaft, pid " + broker.pid()
                        + ") on " + broker.bootstrapServers() + ", log " + broker.log() + "; kafka: the OS flushes,"
                        + " kafka-fsync: topic flush.messages=1 (fsync before each ack)");
            } catch (IOException | RuntimeException e) {
                failure = "the Kafka broker could not start: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = "interrupted while starting the Kafka broker";
            }
        }
        return failure;
    }

    private static String unreachable(String servers) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
            admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return "Kafka is not reachable at " + servers + " (" + e.getMessage() + "); set KAFKA_BOOTSTRAP_SERVERS";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while reaching Kafka at " + servers;
        }
    }

    /** The broker as the report names it, or null when {@link #unavailableReason()} found none. */
    static String server() {
        if (unavailableReason() != null) {
            return null;
        }
        return EXTERNAL != null ? "Kafka at " + EXTERNAL + " (client " + AppInfoParser.getVersion() + ")"
                : "Kafka " + AppInfoParser.getVersion() + ", one KRaft broker started by the lab";
    }

    /** The running broker's address; only after {@link #unavailableReason()} returned null. */
    static synchronized String bootstrapServers() {
        return EXTERNAL != null ? EXTERNAL : running().bootstrapServers();
    }

    /** The broker's process when the lab started it, for its CPU and writes; null for the user's broker. */
    static synchronized BrokerProcess process() {
        return EXTERNAL != null ? null : BrokerProcess.of("kafka.Kafka", running().pid());
    }

    private static KafkaBroker running() {
        if (broker == null) {
            throw new IllegalStateException("the Kafka broker is not running: " + failure);
        }
        return broker;
    }

    private static synchronized void stop() {
        try {
            broker.close();
        } catch (IOException e) {
            System.err.println("bench: stopping the Kafka broker: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
