package io.dbqueue.kafka;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogAdmin;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogPosition;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.RecordBatch;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import io.dbqueue.postgres.PostgresServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static io.dbqueue.kafka.RelayedSequence.assertRelayed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relay against a real PostgreSQL and a real Kafka broker: what reaches Kafka, read back with a
 * Kafka consumer, per partition, by the log offset each record carries.
 */
class KafkaRelayTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 3;
    private static final int BATCH = 50;
    private static final int MESSAGES = 600;

    private static final AtomicInteger TOPICS = new AtomicInteger();

    private static HikariDataSource dataSource;
    private DbQueue dbq;
    private String topic;
    private final List<KafkaRelay> relays = new ArrayList<>();

    @BeforeAll
    static void servers() {
        dataSource = PostgresServer.shared().dataSource(10);
        TestKafka.bootstrapServers();
    }

    @AfterAll
    static void closePool() {
        dataSource.close();
    }

    /** A log topic and a Kafka topic of the same name, fresh for each test. */
    @BeforeEach
    void topics() throws Exception {
        topic = "relay_" + TOPICS.incrementAndGet();
        LogSchema.recreate(dataSource, Topic.of(topic, PARTITIONS));
        TestKafka.createTopic(topic, PARTITIONS);
        dbq = DbQueue.builder(dataSource).build();
    }

    @AfterEach
    void stop() {
        relays.forEach(KafkaRelay::close);
        dbq.close();
    }

    private GroupConfig group() {
        return GroupConfig.of(topic, "kafka-relay").withBatchSize(BATCH).withLease(Duration.ofSeconds(1))
                .withPollInterval(Duration.ofMillis(20));
    }

    private KafkaRelay relay(RelayListener listener) {
        return relay(TestKafka.producerConfig(), listener);
    }

    private KafkaRelay relay(Map<String, Object> producerConfig, RelayListener listener) {
        KafkaRelay relay = KafkaRelay.start(dbq, group().withMemberId("relay-" + relays.size()), topic,
                producerConfig, listener);
        relays.add(relay);
        return relay;
    }

    /**
     * A relay whose close is a crash: the producer drops the records it has not sent. They wait
     * {@code linger.ms} for company, unless the relay flushes, so that a relay that committed before
     * Kafka's acknowledgement would lose them.
     */
    private KafkaRelay crashingRelay(RelayListener listener) {
        Map<String, Object> config = new HashMap<>(TestKafka.producerConfig());
        config.put("linger.ms", 50);
        Supplier<Producer<String, String>> producers = () -> new KafkaProducer<>(ProducerSettings.of(config)) {
            @Override
            public void close(Duration timeout) {
                super.close(Duration.ZERO);
            }
        };
        KafkaRelay relay = KafkaRelay.start(dbq, group().withMemberId("relay-" + relays.size()), topic, producers,
                listener);
        relays.add(relay);
        return relay;
    }

    /** Appends {@code count} keyed messages in sends of 20; returns them by partition and offset. */
    private Map<Integer, Map<Long, LogMessage>> appendMessages(int count) {
        TopicProducer producer = dbq.topicProducer(topic);
        Map<Integer, Map<Long, LogMessage>> appended = new HashMap<>();
        for (int sent = 0; sent < count; sent += 20) {
            List<LogMessage> messages = new ArrayList<>();
            for (int i = sent; i < sent + 20; i++) {
                messages.add(new LogMessage("key-" + i % 37, "payload-" + i));
            }
            List<LogPosition> positions = producer.sendAll(messages);
            for (int i = 0; i < messages.size(); i++) {
                appended.computeIfAbsent(positions.get(i).partition(), p -> new HashMap<>())
                        .put(positions.get(i).offset(), messages.get(i));
            }
        }
        return appended;
    }

    /** As {@link #appendMessages}; returns each partition's message count. */
    private Map<Integer, Long> append(int count) {
        Map<Integer, Long> counts = new HashMap<>();
        appendMessages(count).forEach((partition, messages) -> counts.put(partition, (long) messages.size()));
        return counts;
    }

    @Test
    void everyRecordArrivesOnceInItsPartitionInOrderWithItsKeyPayloadAndTime() throws Exception {
        Map<Integer, Map<Long, LogMessage>> appended = appendMessages(MESSAGES);
        assertEquals(PARTITIONS, appended.size(), "the keys spread over every partition");
        Map<String, Instant> appendedAt = new ConcurrentHashMap<>(); // partition/offset -> the append's time
        relay(batch -> batch.records().forEach(r -> appendedAt.put(r.partition() + "/" + r.offset(), r.appendedAt())));

        Map<Integer, Long> counts = new HashMap<>();
        appended.forEach((partition, messages) -> counts.put(partition, (long) messages.size()));
        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntilComplete(topic, counts, TIMEOUT);
        for (int partition : counts.keySet()) {
            List<ConsumerRecord<String, String>> records = read.get(partition);
            assertEquals(TestKafka.range(counts.get(partition)), TestKafka.logOffsets(records),
                    "partition " + partition + ": every offset once, in order");
            for (ConsumerRecord<String, String> record : records) {
                long offset = TestKafka.logOffset(record);
                LogMessage message = appended.get(partition).get(offset);
                assertEquals(message.key(), record.key());
                assertEquals(message.payload(), record.value());
                assertEquals(appendedAt.get(partition + "/" + offset).toEpochMilli(), record.timestamp());
            }
        }
    }

    /** Closed from a thread whose interrupt flag is set, the relay waited for nothing and its producer's close threw. */
    @Test
    void closingFromAnInterruptedThreadClosesAndKeepsTheInterrupt() throws Exception {
        KafkaRelay relay = relay(RelayListener.NONE);
        Map<Integer, Long> counts = append(MESSAGES);
        TestKafka.readUntilComplete(topic, counts, TIMEOUT);
        Thread.currentThread().interrupt();
        try {
            relay.close();
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        }
        assertFalse(relay.member().isAlive());
    }

    @Test
    void recordsAppendedWhileTheRelayRunsFollow() throws Exception {
        relay(RelayListener.NONE);
        Map<Integer, Long> counts = append(MESSAGES);
        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntilComplete(topic, counts, TIMEOUT);
        for (int partition : counts.keySet()) {
            assertEquals(TestKafka.range(counts.get(partition)), TestKafka.logOffsets(read.get(partition)));
        }
    }

    /**
     * A relay that crashes after Kafka acknowledged a batch and before the group committed it (its
     * thread interrupted, its producer dropped): its successor relays that batch again, and
     * nothing else twice.
     */
    @Test
    void aRelayKilledAfterTheAcknowledgementAndBeforeTheCommitIsFollowedByItsBatchAgain() throws Exception {
        Map<Integer, Long> counts = append(MESSAGES);
        CountDownLatch acknowledged = new CountDownLatch(1);
        AtomicReference<RecordBatch> cut = new AtomicReference<>();
        AtomicInteger batches = new AtomicInteger();
        KafkaRelay first = crashingRelay(batch -> {
            if (batches.incrementAndGet() == 3) {
                cut.set(batch);
                acknowledged.countDown();
                new CountDownLatch(1).await(); // until the member's thread is interrupted
            }
        });
        assertTrue(acknowledged.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the third batch acknowledged");
        first.member().shutdown(Duration.ofMillis(1));
        first.close();

        relay(RelayListener.NONE);
        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntilComplete(topic, counts, TIMEOUT);
        assertRelayedOnceBut(read, counts, cut.get());
    }

    /**
     * A relay that hangs after Kafka acknowledged a batch (a process paused, a partition cut off from
     * its database): its lease runs out, a second relay of the group takes its partitions over and
     * relays the batch again. The hung one, let go, has its commit refused: had it been taken, the group's
     * offset would have gone back and the second relay would have sent those records again.
     */
    @Test
    void aRelayAbandonedAfterTheAcknowledgementIsReplacedByAnotherMemberOfItsGroup() throws Exception {
        Map<Integer, Long> counts = append(MESSAGES);
        CountDownLatch acknowledged = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<RecordBatch> cut = new AtomicReference<>();
        AtomicInteger batches = new AtomicInteger();
        KafkaRelay hung = relay(batch -> {
            if (batches.incrementAndGet() == 3) {
                cut.set(batch);
                acknowledged.countDown();
                release.await();
            }
        });
        assertTrue(acknowledged.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the third batch acknowledged");

        KafkaRelay replacement = relay(RelayListener.NONE);
        assertRelayedOnceBut(TestKafka.readUntilComplete(topic, counts, TIMEOUT), counts, cut.get());
        release.countDown();
        assertTrue(hung.member().shutdown(TIMEOUT), "the hung relay's commit attempt ended");
        awaitCommitted(counts);
        assertTrue(replacement.member().shutdown(TIMEOUT), "the replacement stopped");
        assertRelayedOnceBut(TestKafka.readUntilComplete(topic, counts, TIMEOUT), counts, cut.get());
    }

    /** Until the relays' group has committed every record of {@code counts}; fails after {@link #TIMEOUT}. */
    private void awaitCommitted(Map<Integer, Long> counts) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!LogAdmin.of(dataSource, topic).lag().stream().allMatch(lag -> lag.lag() == 0)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not all of " + counts + " committed: " + LogAdmin.of(dataSource, topic).lag());
            }
            Thread.sleep(20); // a poll of the group's committed offsets, bounded by the deadline
        }
    }

    /** Each partition in order and complete, and only {@code replayed}'s records twice: they follow their first copy. */
    private static void assertRelayedOnceBut(Map<Integer, List<ConsumerRecord<String, String>>> read,
                                             Map<Integer, Long> counts, RecordBatch replayed) {
        for (int partition : counts.keySet()) {
            List<Long> offsets = TestKafka.logOffsets(read.get(partition));
            assertRelayed(offsets, counts.get(partition), BATCH);
            long extra = offsets.size() - counts.get(partition);
            assertEquals(partition == replayed.partition() ? replayed.records().size() : 0, extra,
                    "partition " + partition + ": records relayed twice: " + offsets);
        }
    }

    /**
     * Relays crashed at random points (their thread interrupted while sending, waiting for Kafka or
     * committing, their unsent records dropped) while messages keep coming, each followed by a fresh one: no loss, no reordering,
     * a replay at most of the batch in hand.
     */
    @Test
    void relaysKilledAtAnyPointLoseAndReorderNothing() throws Exception {
        Map<Integer, Long> counts = new HashMap<>();
        for (int round = 0; round < 5; round++) {
            CountDownLatch relayedOne = new CountDownLatch(1);
            KafkaRelay relay = crashingRelay(batch -> relayedOne.countDown());
            append(MESSAGES / 5).forEach((partition, count) -> counts.merge(partition, count, Long::sum));
            assertTrue(relayedOne.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "round " + round + " relayed a batch");
            relay.member().shutdown(Duration.ofMillis(1)); // most likely in the round's next batch
            relay.close();
        }
        relay(RelayListener.NONE);
        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntilComplete(topic, counts, TIMEOUT);
        for (int partition : counts.keySet()) {
            assertRelayed(TestKafka.logOffsets(read.get(partition)), counts.get(partition), BATCH);
        }
    }

    /**
     * A record the producer refuses (larger than its max.request.size) stops its partition there:
     * the records before it are relayed again and again, none after it goes ahead of it, and the
     * group commits nothing until it is dealt with.
     */
    @Test
    void aRecordKafkaRefusesHoldsItsPartitionWithNothingAfterItRelayed() throws Exception {
        List<LogMessage> messages = new ArrayList<>();
        IntStream.range(0, 11).forEach(i -> messages.add(new LogMessage("one-key", i == 5 ? "x".repeat(5_000) : "m" + i)));
        int partition = dbq.topicProducer(topic).sendAll(messages).get(0).partition();
        Map<String, Object> config = new HashMap<>(TestKafka.producerConfig());
        config.put("max.request.size", 2_048);
        relay(config, RelayListener.NONE);

        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntil(topic, Set.of(partition), TIMEOUT,
                "reading the 5 records before the refused one twice", r -> r.getOrDefault(partition, List.of()).size() >= 10);
        List<Long> offsets = TestKafka.logOffsets(read.get(partition));
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 0L, 1L, 2L, 3L, 4L), offsets.subList(0, 10), "relayed again: " + offsets);
        assertTrue(offsets.stream().allMatch(offset -> offset < 5), "nothing after the refused record: " + offsets);
        assertEquals(0, LogAdmin.of(dataSource, topic).lag().stream().filter(lag -> lag.partition() == partition)
                .findFirst().orElseThrow().committedOffset(), "nothing committed");
    }

    @Test
    void aKafkaTopicWithFewerPartitionsIsRefusedAtTheStart() throws Exception {
        TestKafka.createTopic(topic + "_small", PARTITIONS - 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> KafkaRelay.start(dbq, group(),
                topic + "_small", TestKafka.producerConfig()));
        assertEquals("Kafka topic " + topic + "_small has 2 partitions, fewer than the 3 of log topic " + topic
                + ": the relay keeps each record's partition number, so give the Kafka topic at least 3 partitions",
                e.getMessage());
    }

    /**
     * A record the broker refuses after it was sent (larger than the topic's max.message.bytes, under the producer's
     * max.request.size) holds its partition as one the producer refuses does: the records after it in its batch are
     * not written ahead of it, whether each record is a producer batch of its own (batch.size 0) or all are one that
     * the producer splits when the broker refuses it (the default batch.size). Without the producer closed at the
     * failure, both wrote offsets 6 to 10.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 16_384})
    void aRecordTheBrokerRefusesHoldsItsPartitionWithNothingAfterItRelayed(int batchSize) throws Exception {
        TestKafka.createTopic(topic + "_strict", PARTITIONS, Map.of("max.message.bytes", "4000"));
        List<LogMessage> messages = new ArrayList<>();
        IntStream.range(0, 11).forEach(i -> messages.add(new LogMessage("one-key", i == 5 ? "x".repeat(5_000) : "m" + i)));
        int partition = dbq.topicProducer(topic).sendAll(messages).get(0).partition();
        Map<String, Object> config = new HashMap<>(TestKafka.producerConfig());
        config.put("batch.size", batchSize);
        relays.add(KafkaRelay.start(dbq, group(), topic + "_strict", config));

        Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntil(topic + "_strict",
                Set.of(partition), TIMEOUT, "reading the 5 records before the refused one twice",
                r -> r.getOrDefault(partition, List.of()).size() >= 10);
        List<Long> offsets = TestKafka.logOffsets(read.get(partition));
        assertTrue(offsets.stream().allMatch(offset -> offset < 5), "nothing after the refused record: " + offsets);
        assertEquals(0, LogAdmin.of(dataSource, topic).lag().stream().filter(lag -> lag.partition() == partition)
                .findFirst().orElseThrow().committedOffset(), "nothing committed");
    }

    @Test
    void aKafkaTopicThatDoesNotExistIsRefusedAtTheStart() {
        RelayException e = assertThrows(RelayException.class, () -> KafkaRelay.start(dbq, group(), topic + "_missing",
                TestKafka.producerConfig()));
        assertEquals("Kafka topic " + topic + "_missing does not exist", e.getMessage());
    }

    @Test
    void onlyAnAtLeastOnceGroupCanRelay() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> KafkaRelay.start(dbq,
                group().withMode(DeliveryMode.AT_MOST_ONCE), topic, TestKafka.producerConfig()));
        assertEquals("group.mode", e.field());
    }
}
