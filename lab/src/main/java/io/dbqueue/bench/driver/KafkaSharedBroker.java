package io.dbqueue.bench.driver;

import org.apache.kafka.common.utils.internals.AppInfoParser;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;

/**
 * The one Kafka broker of a bench run, shared by {@code kafka} and {@code kafka-fsync}: started when
 * the first of their cells asks whether it can run, so that a run without them starts nothing, and
 * stopped when the JVM exits. A broker that failed to start is not tried again: its reason skips
 * the other driver's cells at once instead of after another timeout.
 */
final class KafkaSharedBroker {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private static KafkaBroker broker;
    private static String failure;

    private KafkaSharedBroker() {
    }

    /** Starts the broker unless that was tried already; returns why it is not running, or null. */
    static synchronized String unavailableReason() {
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

    /** The running broker's address; only after {@link #unavailableReason()} returned null. */
    static synchronized String bootstrapServers() {
        return running().bootstrapServers();
    }

    /** The running broker's process id; only after {@link #unavailableReason()} returned null. */
    static synchronized long pid() {
        return running().pid();
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
