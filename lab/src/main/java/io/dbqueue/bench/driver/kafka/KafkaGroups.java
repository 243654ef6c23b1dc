package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.LogLoad;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The consumer groups of a kafka cell: {@link LogLoad#groups()} groups of {@code consumers}
 * threads, each with its own {@link KafkaConsumer} subscribed to the topic from its earliest
 * offset. A thread polls up to {@code readBatch} records (the workload's consumer batch, else
 * {@link LogLoad#readBatch()}), commits their offsets
 * synchronously and then reports them: at least once, the library's default. Every group reads
 * every record, so a record is counted once per group.
 *
 * <p>{@link #start} returns only once each group's members have joined and share all the topic's
 * partitions, so that the joins' rebalances happen before the warm-up rather than in the window.
 */
final class KafkaGroups implements AutoCloseable {

    private static final Duration POLL_WAIT = Duration.ofMillis(100);
    private static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final long ASSIGNMENT_CHECK_MILLIS = 50;

    private final List<Thread> threads = new ArrayList<>();
    /** Partitions held by each member, group after group; -1 until its first assignment. */
    private final AtomicIntegerArray assigned;
    private volatile boolean running = true;

    private KafkaGroups(int members) {
        assigned = new AtomicIntegerArray(members);
        for (int i = 0; i < members; i++) {
            assigned.set(i, -1);
        }
    }

    static KafkaGroups start(String bootstrapServers, String topic, LogLoad log, int readBatch, int consumers,
                             Meter meter, AtomicReference<Throwable> failure) throws Exception {
        KafkaGroups groups = new KafkaGroups(log.groups() * consumers);
        for (int g = 0; g < log.groups(); g++) {
            Map<String, Object> config = Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    ConsumerConfig.GROUP_ID_CONFIG, topic + "-group-" + (g + 1),
                    ConsumerConfig.MAX_POLL_RECORDS_CONFIG, readBatch,
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            for (int c = 0; c < consumers; c++) {
                int member = g * consumers + c;
                Thread thread = new Thread(() -> groups.consume(config, topic, member, readBatch, meter, failure),
                        "bench-kafka-group-" + (g + 1) + "-consumer-" + (c + 1));
                thread.setDaemon(true);
                groups.threads.add(thread);
            }
        }
        groups.threads.forEach(Thread::start);
        try {
            groups.awaitAssignment(log.partitions(), consumers, failure);
            return groups;
        } catch (Exception e) {
            groups.close();
            throw e;
        }
    }

    private void consume(Map<String, Object> config, String topic, int member, int readBatch, Meter meter,
                         AtomicReference<Throwable> failure) {
        try {
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
            try {
                consumer.subscribe(List.of(topic), new Assignments(consumer, member));
                read(consumer, readBatch, meter);
            } finally {
                // bounded: after Ctrl-C the broker may be gone, and leaving the group would wait for it
                consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
            }
        } catch (RuntimeException e) {
            if (running) {
                failure.compareAndSet(null, e);
            }
        }
    }

    private void read(KafkaConsumer<String, String> consumer, int readBatch, Meter meter) {
        long[] stamps = new long[readBatch];
        while (running) {
            ConsumerRecords<String, String> records = consumer.poll(POLL_WAIT);
            if (records.isEmpty()) {
                continue;
            }
            int count = 0;
            for (ConsumerRecord<String, String> record : records) {
                stamps[count++] = Payloads.stamp(record.value());
            }
            consumer.commitSync();
            meter.processed(stamps, count);
        }
    }

    /** Waits until every member has had an assignment and each group's members hold all partitions between them. */
    private void awaitAssignment(int partitions, int consumers, AtomicReference<Throwable> failure)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + ASSIGNMENT_TIMEOUT.toNanos();
        while (!settled(partitions, consumers)) {
            Throwable died = failure.get();
            if (died != null) {
                throw new IllegalStateException("a Kafka consumer failed: " + died.getMessage(), died);
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the Kafka consumer groups did not get the topic's partitions within "
                        + ASSIGNMENT_TIMEOUT);
            }
            Thread.sleep(ASSIGNMENT_CHECK_MILLIS);
        }
    }

    private boolean settled(int partitions, int consumers) {
        for (int first = 0; first < assigned.length(); first += consumers) {
            int held = 0;
            for (int member = first; member < first + consumers; member++) {
                if (assigned.get(member) < 0) {
                    return false;
                }
                held += assigned.get(member);
            }
            if (held != partitions) {
                return false;
            }
        }
        return true;
    }

    /** Keeps a member's count of held partitions; called on the member's thread, inside poll. */
    private final class Assignments implements ConsumerRebalanceListener {
        private final KafkaConsumer<String, String> consumer;
        private final int member;

        Assignments(KafkaConsumer<String, String> consumer, int member) {
            this.consumer = consumer;
            this.member = member;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            assigned.set(member, consumer.assignment().size());
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            assigned.addAndGet(member, -partitions.size());
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
