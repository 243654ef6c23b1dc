package io.dbqueue.kafka;

import io.dbqueue.kafkaserver.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/** The suite's Kafka broker (kafka-server's, started once per JVM on first use) and what the tests do with it. */
final class TestKafka {

    private static KafkaBroker broker;

    private TestKafka() {
    }

    static synchronized String bootstrapServers() {
        if (broker == null) {
            try {
                broker = KafkaBroker.start(Files.createTempDirectory("relay-kafka-"), Duration.ofSeconds(60));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            KafkaBroker started = broker;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException | InterruptedException e) {
                    System.err.println("stopping the test Kafka broker: " + e);
                }
            }, "test-kafka-stop"));
        }
        return broker.bootstrapServers();
    }

    static Map<String, Object> producerConfig() {
        return Map.of("bootstrap.servers", bootstrapServers());
    }

    static void createTopic(String name, int partitions) throws Exception {
        createTopic(name, partitions, Map.of());
    }

    static void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Every record of {@code counts}' partitions of {@code topic}, per partition in Kafka's order,
     * read until each partition holds the log offsets 0 to its count at least once; fails after
     * {@code timeout}.
     */
    static Map<Integer, List<ConsumerRecord<String, String>>> readUntilComplete(String topic, Map<Integer, Long> counts,
                                                                             Duration timeout) {
        return readUntil(topic, counts.keySet(), timeout, "reading " + counts + " records per partition",
                read -> counts.keySet().stream().allMatch(p -> Set.copyOf(logOffsets(read.getOrDefault(p, List.of())))
                        .size() == counts.get(p)));
    }

    /** As {@link #readUntilComplete}, until {@code done} holds of the records read per partition. */
    static Map<Integer, List<ConsumerRecord<String, String>>> readUntil(
            String topic, Set<Integer> partitions, Duration timeout, String what,
            Predicate<Map<Integer, List<ConsumerRecord<String, String>>>> done) {
        Map<Integer, List<ConsumerRecord<String, String>>> read = new HashMap<>();
        List<TopicPartition> assigned = partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(read)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out after " + timeout + " " + what + " from Kafka topic " + topic
                            + "; records read per partition: " + sizes(read));
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    read.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record);
                }
            }
        }
        return read;
    }

    private static Map<Integer, Integer> sizes(Map<Integer, List<ConsumerRecord<String, String>>> read) {
        Map<Integer, Integer> sizes = new HashMap<>();
        read.forEach((p, records) -> sizes.put(p, records.size()));
        return sizes;
    }

    static long logOffset(ConsumerRecord<String, String> record) {
        Header header = record.headers().lastHeader(KafkaRelay.OFFSET_HEADER);
        return Long.parseLong(new String(header.value(), StandardCharsets.US_ASCII));
    }

    static List<Long> logOffsets(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(TestKafka::logOffset).toList();
    }

    static List<Long> range(long count) {
        return IntStream.range(0, (int) count).mapToObj(i -> (long) i).toList();
    }
}
