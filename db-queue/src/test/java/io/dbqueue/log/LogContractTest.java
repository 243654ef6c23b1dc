package io.dbqueue.log;

import io.dbqueue.Await;
import io.dbqueue.CheckedDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.QueueException;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.maintenance.LogRetention;
import io.dbqueue.maintenance.RetentionPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log's promises, against a real PostgreSQL. */
class LogContractTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String TOPIC = "log_contract";

    private final DataSource dataSource = TestDatabase.dataSource();
    /** What the door's members told of falling behind retention. */
    private final List<GroupBehindRetentionException> behind = new CopyOnWriteArrayList<>();
    private DbQueue dbq;

    @BeforeEach
    void createTopic() {
        LogSchema.recreate(dataSource, new Topic(TOPIC, 4, 1_000));
        dbq = DbQueue.builder(dataSource).logListener(new LogListener() {
            @Override
            public void behindRetention(String topic, String group, int partition, GroupBehindRetentionException e) {
                behind.add(e);
            }
        }).build();
    }

    @AfterEach
    void stop() {
        dbq.close();
    }

    private GroupConsumer member(GroupConfig config, RecordHandler handler) {
        return dbq.consumeTopic(config, handler);
    }

    private static GroupConfig group(String group) {
        return GroupConfig.of(TOPIC, group).withPollInterval(Duration.ofMillis(20)).withLease(Duration.ofSeconds(2));
    }

    private static List<LogMessage> messages(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> new LogMessage(prefix + i, prefix + "-" + i)).toList();
    }

    @Test
    void concurrentAppendsWithRollbacksLeaveNeitherGapNorDuplicate() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        Set<String> committed = ConcurrentHashMap.newKeySet();
        Set<String> rolledBack = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                for (int t = 0; t < 40; t++) {
                    List<LogMessage> batch = messages("w" + writer + "t" + t + "m", 1 + ThreadLocalRandom.current().nextInt(30));
                    boolean rollback = ThreadLocalRandom.current().nextInt(3) == 0;
                    try (Connection c = dataSource.getConnection()) {
                        c.setAutoCommit(false);
                        producer.sendAll(c, batch);
                        if (rollback) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                    }
                    batch.forEach(m -> (rollback ? rolledBack : committed).add(m.payload()));
                }
                return null;
            }));
        }
        for (Future<?> f : writers) {
            f.get();
        }
        pool.shutdown();
        Set<String> stored = new HashSet<>();
        for (int p = 0; p < 4; p++) {
            List<Long> offsets = new ArrayList<>();
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT log_offset, payload FROM " + TOPIC + "_p" + p + " ORDER BY log_offset")) {
                while (rs.next()) {
                    offsets.add(rs.getLong(1));
                    assertTrue(stored.add(rs.getString(2)), "stored twice: " + rs.getString(2));
                }
            }
            for (int i = 0; i < offsets.size(); i++) {
                assertEquals(i, offsets.get(i), "partition " + p + " has a gap or duplicate at " + i);
            }
            assertEquals(offsets.size(), TestDatabase.queryLong(
                    "SELECT next_offset FROM " + TOPIC + "_partitions WHERE partition = " + p));
        }
        assertEquals(committed, stored);
        assertFalse(rolledBack.isEmpty());
    }

    @Test
    void appendsCrossSegmentsAndABadBatchStoresNothing() throws SQLException {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        for (int i = 0; i < 12; i++) {
            producer.sendAll(IntStream.range(0, 500).mapToObj(n -> LogMessage.of("x")).toList());
        }
        assertEquals(6_000, totalNext());
        assertTrue(TestDatabase.queryLong("SELECT count(*) FROM pg_inherits WHERE inhparent::regclass::text LIKE '"
                + TOPIC + "_p%'") >= 4 * 3, "segments beyond the first two were created as appends needed them");
        List<LogMessage> bad = new ArrayList<>(messages("k", 5));
        bad.add(new LogMessage("k", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> producer.sendAll(bad));
        assertEquals("append to log_contract: message 5 has a null payload", e.getMessage());
        assertEquals(6_000, totalNext());
    }

    private long totalNext() {
        try {
            return TestDatabase.queryLong("SELECT sum(next_offset) FROM " + TOPIC + "_partitions");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aGroupReadsEveryRecordOnceInOrderAcrossItsMembers() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        Map<Integer, List<Long>> seen = new ConcurrentHashMap<>();
        AtomicInteger count = new AtomicInteger();
        RecordHandler handler = batch -> {
            List<Long> offsets = seen.computeIfAbsent(batch.partition(), p -> new CopyOnWriteArrayList<>());
            batch.records().forEach(r -> offsets.add(r.offset()));
            count.addAndGet(batch.records().size());
        };
        member(group("readers").withBatchSize(50), handler);
        member(group("readers").withBatchSize(50), handler);
        for (int i = 0; i < 20; i++) {
            producer.sendAll(messages("b" + i + "-", 100));
        }
        Await.until(TIMEOUT, "2,000 records read", () -> count.get() >= 2_000);
        Await.until(TIMEOUT, "group caught up", () -> LogAdmin.of(dataSource, TOPIC).lag().stream().allMatch(l -> l.lag() == 0));
        assertEquals(2_000, count.get());
        seen.forEach((p, offsets) -> {
            for (int i = 0; i < offsets.size(); i++) {
                assertEquals(i, offsets.get(i), "partition " + p + " read out of order, skipped or twice at " + i);
            }
        });
    }

    @Test
    void membersShareThePartitionsAndAStuckMembersRangeIsReadAgainAfterItsLease() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        Set<Long> stuckOffsets = ConcurrentHashMap.newKeySet();
        Map<String, Set<Long>> readBy = new ConcurrentHashMap<>();
        GroupConsumer a = member(group("g").withMemberId("a"), batch -> {
            if (first.compareAndSet(true, false)) {
                batch.records().forEach(r -> stuckOffsets.add(batch.partition() * 1_000_000L + r.offset()));
                stuck.await(); // the member stops heartbeating, as if it had died mid-batch
            }
        });
        Await.until(TIMEOUT, "a holds all partitions", () -> a.partitions().size() == 4);
        GroupConsumer b = member(group("g").withMemberId("b"), batch -> batch.records()
                .forEach(r -> readBy.computeIfAbsent("b", k -> ConcurrentHashMap.newKeySet()).add(batch.partition() * 1_000_000L + r.offset())));
        Await.until(TIMEOUT, "a and b hold two partitions each", () -> a.partitions().size() == 2 && b.partitions().size() == 2);
        Instant stuckAt = Instant.now();
        producer.sendAll(messages("k", 400));
        Await.until(TIMEOUT, "a is stuck in a batch", () -> !stuckOffsets.isEmpty());
        Await.until(TIMEOUT, "b takes over a's partitions and reads a's uncommitted range",
                () -> readBy.getOrDefault("b", Set.of()).containsAll(stuckOffsets) && readBy.get("b").size() == 400);
        assertTrue(Duration.between(stuckAt, Instant.now()).compareTo(Duration.ofSeconds(2 * 3)) < 0,
                "took over within a few leases");
        stuck.countDown();
        Await.until(TIMEOUT, "group caught up", () -> LogAdmin.of(dataSource, TOPIC).lag().stream()
                .filter(l -> l.group().equals("g")).allMatch(l -> l.lag() == 0));
    }

    /**
     * A member keeps no back-off of a partition that went to another member. A back-off ended only with a read of
     * its partition, so once it was due the member looped without waiting, reading its other partitions thousands of
     * times a second, until the partition came back. Counted over two seconds: a member polling every 20 ms makes
     * some 200 reads of its two partitions and heartbeats in that time.
     */
    @Test
    void aBackOffOfAPartitionThatWentToAnotherMemberDoesNotKeepTheMemberBusy() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        DataSource counted = CheckedDataSource.of(dataSource, connections::incrementAndGet);
        dbq.topicProducer(TOPIC).sendAll(messages("k", 40));
        AtomicBoolean failing = new AtomicBoolean(true);
        Set<Integer> failed = ConcurrentHashMap.newKeySet();
        try (DbQueue door = DbQueue.builder(counted).build()) {
            GroupConsumer a = door.consumeTopic(group("g").withMemberId("a"), batch -> {
                if (failing.get()) {
                    failed.add(batch.partition());
                    throw new IllegalStateException("handler fails");
                }
            });
            Await.until(TIMEOUT, "every partition failed in a", () -> failed.size() == 4);
            GroupConsumer b = member(group("g").withMemberId("b"), batch -> {
            });
            Await.until(TIMEOUT, "two partitions each", () -> a.partitions().size() == 2 && b.partitions().size() == 2);
            failing.set(false);
            Await.until(TIMEOUT, "all read", () -> LogAdmin.of(dataSource, TOPIC).lag().stream()
                    .filter(l -> l.group().equals("g")).allMatch(l -> l.lag() == 0));
            int before = connections.get();
            LockSupport.parkNanos(Duration.ofSeconds(2).toNanos()); // a window to count in, not a wait for an event
            int used = connections.get() - before;
            assertTrue(used < 800, "a took " + used + " connections in 2 s");
        }
    }

    /**
     * A retention drop locks the partition's table before its counter row, as an append does. It took the row first:
     * an append in a transaction that already held the table (here it had read the partition) then waited for the
     * row while the DROP waited for the table, and PostgreSQL broke the deadlock by aborting the drop.
     */
    @Test
    void aRetentionDropAndAnAppendInATransactionDoNotDeadlock() throws Exception {
        Topic topic = LogSchema.describe(dataSource, TOPIC);
        String key = IntStream.range(0, 100).mapToObj(i -> "key-" + i).filter(k -> topic.partitionOf(k) == 0)
                .findFirst().orElseThrow();
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(IntStream.range(0, 1_500).mapToObj(i -> new LogMessage(key, "m" + i)).toList());
        TopicSegments segments = TopicSegments.of(dataSource, TOPIC);
        TopicSegments.Segment first;
        try (Connection c = dataSource.getConnection()) {
            first = segments.segments(c, 0).get(0);
        }
        try (Connection appender = dataSource.getConnection()) {
            appender.setAutoCommit(false);
            try (Statement st = appender.createStatement()) {
                st.execute("SET LOCAL deadlock_timeout = '20s'"); // so that the drop's check would find a deadlock
                st.executeQuery("SELECT count(*) FROM " + TOPIC + "_p0").close();
            }
            CompletableFuture<Boolean> drop = CompletableFuture.supplyAsync(() -> {
                try (Connection c = dataSource.getConnection()) {
                    return segments.drop(c, 0, first, false);
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getSQLState() + ": " + e.getMessage(), e);
                }
            });
            Await.until(TIMEOUT, "the drop waiting for the partition's table", () -> waitingOnLocks() == 1);
            producer.sendAll(appender, List.of(new LogMessage(key, "during the drop")));
            appender.commit();
            assertTrue(drop.get(30, TimeUnit.SECONDS), "the segment dropped");
        }
    }

    /**
     * A reset waits for an exactly-once batch in hand without holding up the topic's producers. It locked the
     * partition's row first (a reset by time: each partition's before the next group row) and then waited for the
     * group's row, which the batch holds, and appends to the locked partitions waited for as long as the handler ran.
     */
    @ParameterizedTest(name = "by time: {0}")
    @ValueSource(booleans = {false, true})
    void aResetWaitingForAnExactlyOnceBatchDoesNotHoldUpProducers(boolean byTime) throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        Topic topic = LogSchema.describe(dataSource, TOPIC);
        CountDownLatch inBatch = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger partition = new AtomicInteger(-1);
        member(group("eo").withMode(DeliveryMode.EXACTLY_ONCE), batch -> {
            if (partition.compareAndSet(-1, batch.partition())) {
                inBatch.countDown();
                release.await();
            }
        });
        String onLast = IntStream.range(0, 100).mapToObj(i -> "key-" + i)
                .filter(k -> topic.partitionOf(k) == topic.partitions() - 1).findFirst().orElseThrow();
        producer.send(onLast, "held"); // on the last partition: a reset by time passes the others first
        assertTrue(inBatch.await(30, TimeUnit.SECONDS));
        LogAdmin admin = LogAdmin.of(dataSource, TOPIC);
        CompletableFuture<Void> reset = CompletableFuture.runAsync(() -> {
            if (byTime) {
                admin.resetGroup("eo", Instant.EPOCH);
            } else {
                admin.resetGroup("eo", partition.get(), 0);
            }
        });
        try {
            Await.until(TIMEOUT, "the reset waiting for the batch", () -> waitingOnLocks() == 1);
            CompletableFuture<List<LogPosition>> sends = CompletableFuture.supplyAsync(() -> producer.sendAll(
                    IntStream.range(0, 100).mapToObj(i -> new LogMessage("key-" + i, "meanwhile")).toList()));
            Await.until(TIMEOUT, "the sends done, or waiting", () -> sends.isDone() || waitingOnLocks() == 2);
            assertTrue(sends.isDone(), "the sends did not wait behind the reset");
            assertEquals(topic.partitions(), sends.get().stream().map(LogPosition::partition).distinct().count());
        } finally {
            release.countDown();
        }
        reset.get(30, TimeUnit.SECONDS);
    }

    /** A send of its own that outruns the segments of two partitions gets both, where the second still failed it. */
    @Test
    void aSendOutrunningTheSegmentsOfSeveralPartitionsGetsThemAll() {
        Topic topic = LogSchema.describe(dataSource, TOPIC);
        List<LogMessage> messages = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            int partition = p;
            String key = IntStream.range(0, 100).mapToObj(i -> "key-" + i).filter(k -> topic.partitionOf(k) == partition)
                    .findFirst().orElseThrow();
            IntStream.range(0, 2_500).forEach(i -> messages.add(new LogMessage(key, partition + "-" + i)));
        }
        List<LogPosition> positions = dbq.topicProducer(TOPIC).sendAll(messages);
        assertEquals(List.of(new LogPosition(0, 2_499), new LogPosition(1, 2_499)),
                List.of(positions.get(2_499), positions.get(4_999)));
    }

    /** Sessions of this database waiting on a lock now. */
    private long waitingOnLocks() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND wait_event_type = 'Lock'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void atMostOnceCommitsBeforeTheHandlerSoAFailedBatchIsNotReadAgain() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(IntStream.range(0, 10).mapToObj(i -> new LogMessage("same-key", "m" + i)).toList());
        List<String> handled = new CopyOnWriteArrayList<>();
        AtomicBoolean failed = new AtomicBoolean();
        member(group("amo").withMode(DeliveryMode.AT_MOST_ONCE).withBatchSize(4), batch -> {
            if (failed.compareAndSet(false, true)) {
                throw new IllegalStateException("handler fails once");
            }
            batch.records().forEach(r -> handled.add(r.payload()));
        });
        Await.until(TIMEOUT, "the rest handled", () -> handled.size() == 6);
        assertEquals(List.of("m4", "m5", "m6", "m7", "m8", "m9"), handled);
    }

    @Test
    void exactlyOnceCommitsTheHandlersSqlWithTheOffset() throws Exception {
        TestDatabase.execute("DROP TABLE IF EXISTS log_effects; CREATE TABLE log_effects (payload text PRIMARY KEY)");
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(messages("e", 300));
        AtomicInteger attempts = new AtomicInteger();
        member(group("eo").withMode(DeliveryMode.EXACTLY_ONCE).withBatchSize(25), batch -> {
            for (LogRecord r : batch.records()) {
                Jdbc.update(batch.connection(), "INSERT INTO log_effects VALUES (?)", r.payload());
            }
            int attempt = attempts.incrementAndGet();
            if (attempt % 7 == 0) {
                throw new StackOverflowError(); // the handler's own: fails the batch, as an exception does
            }
            if (attempt % 5 == 0) {
                throw new AssertionError("every fifth batch fails with an Error after its inserts");
            }
            if (attempt % 3 == 0) {
                throw new IllegalStateException("every third batch fails after its inserts");
            }
        });
        Await.until(TIMEOUT, "every record's effect", () -> TestDatabase.queryLong("SELECT count(*) FROM log_effects") == 300);
        Await.until(TIMEOUT, "group caught up", () -> LogAdmin.of(dataSource, TOPIC).lag().stream().allMatch(l -> l.lag() == 0));
        assertEquals(300, TestDatabase.queryLong("SELECT count(*) FROM log_effects"));
    }

    /**
     * A reset to a time sets each partition to its first record appended at or after it, found across segments
     * (1,000 offsets each here) by offset: before, by time alone, the read walked every segment from the oldest.
     */
    @Test
    void aResetToATimeFindsTheFirstRecordAppendedSinceAcrossSegments() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(messages("before", 6_000)); // about 1,500 a partition: two segments each
        Instant between = Instant.ofEpochMilli(TestDatabase.queryLong(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")).plusMillis(1);
        Await.until(TIMEOUT, "the database's clock past the first appends", () -> TestDatabase.queryLong(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint") > between.toEpochMilli());
        List<LogPosition> since = producer.sendAll(messages("since", 6_000));
        member(group("by-time"), batch -> { }).shutdown(TIMEOUT); // the group's rows, at the end
        LogAdmin admin = LogAdmin.of(dataSource, TOPIC);
        admin.resetGroup("by-time", between);
        Map<Integer, Long> firstSince = new HashMap<>();
        since.forEach(p -> firstSince.merge(p.partition(), p.offset(), Math::min));
        Map<Integer, Long> lag = new HashMap<>();
        admin.lag().stream().filter(l -> l.group().equals("by-time")).forEach(l -> lag.put(l.partition(), l.lag()));
        Map<Integer, Long> expected = new HashMap<>();
        since.forEach(p -> expected.merge(p.partition(), 1L, Long::sum));
        assertEquals(expected, lag, "each partition from its first record appended since; first offsets " + firstSince);
    }

    /**
     * A member told to stop while its handler runs still holds its partitions, so a new member of its id is refused
     * until its thread has ended: accepted, its leaving would have released the new member's partitions mid-batch.
     */
    @Test
    void aMemberWhoseNamesakeIsStillHandlingIsRefused() throws Exception {
        dbq.topicProducer(TOPIC).sendAll(messages("h", 10));
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GroupConfig config = group("namesakes").withMemberId("m");
        GroupConsumer first = member(config, batch -> {
            handling.countDown();
            release.await();
        });
        assertTrue(handling.await(30, TimeUnit.SECONDS));
        first.stopReading();
        assertThrows(IllegalStateException.class, () -> member(config, batch -> { }));
        release.countDown();
        assertTrue(first.shutdown(TIMEOUT));
        assertTrue(member(config, batch -> { }).shutdown(TIMEOUT), "accepted once the first has ended");
    }

    /**
     * A listener that throws changes nothing about delivery. Exactly once its {@code consumed} ran before the commit,
     * so the batch's SQL rolled back after its handler ran, on every retry, and the group never moved on.
     */
    @Test
    void aListenerThatThrowsDoesNotChangeDelivery() throws Exception {
        TestDatabase.execute("DROP TABLE IF EXISTS log_listened; CREATE TABLE log_listened (payload text PRIMARY KEY)");
        AtomicInteger handled = new AtomicInteger();
        LogListener throwing = new LogListener() {
            @Override
            public void consumed(String topic, String group, int partition, int records, long lag) {
                throw new IllegalStateException("the listener's metrics are down");
            }
        };
        try (DbQueue door = DbQueue.builder(dataSource).logListener(throwing).build()) {
            door.topicProducer(TOPIC).sendAll(messages("t", 100));
            door.consumeTopic(group("listened").withMode(DeliveryMode.EXACTLY_ONCE).withBatchSize(10), batch -> {
                handled.addAndGet(batch.records().size());
                for (LogRecord r : batch.records()) {
                    Jdbc.update(batch.connection(), "INSERT INTO log_listened VALUES (?)", r.payload());
                }
            });
            Await.until(TIMEOUT, "every record's effect", () -> TestDatabase.queryLong("SELECT count(*) FROM log_listened") == 100);
            Await.until(TIMEOUT, "group caught up", () -> LogAdmin.of(dataSource, TOPIC).lag().stream().allMatch(l -> l.lag() == 0));
        }
        assertEquals(100, handled.get(), "each record handled once");
    }

    /**
     * Exactly once, a handler that fails on a connection lost under it is the failure told and backed off from. Its
     * batch's auto-commit, turned back on in a finally, failed on the broken connection and replaced it.
     */
    @Test
    void aHandlersFailureOnALostConnectionIsTheOneTold() throws Exception {
        List<Exception> crashes = new CopyOnWriteArrayList<>();
        LogListener crashed = new LogListener() {
            @Override
            public void crashed(String topic, String group, Exception e) {
                crashes.add(e);
            }
        };
        try (DbQueue door = DbQueue.builder(dataSource).logListener(crashed).build()) {
            door.topicProducer(TOPIC).sendAll(messages("k", 1));
            door.consumeTopic(group("lost").withMode(DeliveryMode.EXACTLY_ONCE), batch -> {
                try (Statement s = batch.connection().createStatement()) {
                    s.execute("SELECT pg_terminate_backend(pg_backend_pid())");
                } catch (SQLException lost) {
                    throw new IllegalStateException("the handler's own failure", lost);
                }
            });
            Await.until(TIMEOUT, "a failure told", () -> !crashes.isEmpty());
        }
        assertEquals("the handler's own failure", crashes.get(0).getMessage());
    }

    /**
     * A read opens and locks the segments it reads, not every segment its partition keeps: its range was bound to the
     * group's position by a join, so PostgreSQL could skip no segment when it planned it, and each read locked each
     * segment and its two indexes (here 25 segments a partition, 91 locks; with weeks of segments kept, reads slowed
     * and then failed for want of lock space). Exactly once, the read's locks are the batch transaction's. 60 batches,
     * so that the statements are run often enough for the driver and the server to consider a generic plan.
     */
    @Test
    void aReadLocksOnlyTheSegmentsItReads() throws Exception {
        dbq.topicProducer(TOPIC).sendAll(messages("l", 100_000)); // 25 segments on each of the 4 partitions
        AtomicInteger mostLocks = new AtomicInteger();
        AtomicInteger batches = new AtomicInteger();
        member(group("locks").withMode(DeliveryMode.EXACTLY_ONCE).withBatchSize(100), batch -> {
            try (Statement st = batch.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()")) {
                rs.next();
                mostLocks.accumulateAndGet(rs.getInt(1), Math::max);
            }
            batches.incrementAndGet();
        });
        Await.until(TIMEOUT, "60 batches", () -> batches.get() >= 60);
        assertTrue(mostLocks.get() < 20, mostLocks.get() + " locks held by a read of one batch");
    }

    /**
     * Exactly once, a member whose handler outlives its lease keeps its partition's row locked until it returns. The
     * member whose share that partition is takes its other partitions meanwhile, instead of waiting for the lock in
     * its heartbeat and reading nothing.
     */
    @Test
    void exactlyOnceAStuckHandlersPartitionDoesNotHoldUpTheMemberTakingOver() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(messages("s", 400));
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicInteger stuckPartition = new AtomicInteger(-1);
        GroupConfig config = group("eo-stuck").withMode(DeliveryMode.EXACTLY_ONCE);
        member(config.withMemberId("m2"), batch -> {
            if (stuckPartition.compareAndSet(-1, batch.partition())) {
                stuck.await(); // the member stops heartbeating, its partition's row locked by the read
            }
        });
        Await.until(TIMEOUT, "the first member stuck in its first batch", () -> stuckPartition.get() >= 0);
        int stuckAt = stuckPartition.get();
        long inOthers = LogAdmin.of(dataSource, TOPIC).lag().stream()
                .filter(l -> l.group().equals("eo-stuck") && l.partition() != stuckAt).mapToLong(GroupLag::lag).sum();
        Map<Integer, Set<Long>> readByTakingOver = new ConcurrentHashMap<>();
        try {
            // the stuck member stops heartbeating: once its membership runs out, the other's share is every partition
            member(config.withMemberId("m1"), batch -> batch.records().forEach(r -> readByTakingOver
                    .computeIfAbsent(batch.partition(), p -> ConcurrentHashMap.newKeySet()).add(r.offset())));
            Await.until(TIMEOUT, "the other partitions read by the member taking over while one is stuck",
                    () -> readByTakingOver.values().stream().mapToInt(Set::size).sum() == inOthers);
            assertFalse(readByTakingOver.containsKey(stuckAt), "the stuck partition read while its batch was open");
        } finally {
            stuck.countDown();
        }
        Await.until(TIMEOUT, "group caught up", () -> LogAdmin.of(dataSource, TOPIC).lag().stream()
                .filter(l -> l.group().equals("eo-stuck")).allMatch(l -> l.lag() == 0));
    }

    @Test
    void aGroupStartsEarliestOrLatestAndCanBeResetToAnOffsetOrATime() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        producer.sendAll(IntStream.range(0, 10).mapToObj(i -> new LogMessage("one", "old" + i)).toList());
        int partition = Partitioner.forKey("one", 4);
        List<String> latest = new CopyOnWriteArrayList<>();
        GroupConsumer late = member(group("late").withStartFrom(GroupConfig.StartFrom.LATEST),
                batch -> batch.records().forEach(r -> latest.add(r.payload())));
        Await.until(TIMEOUT, "late holds the partitions", () -> late.partitions().size() == 4);
        producer.send("one", "new");
        Await.until(TIMEOUT, "late reads the new record", () -> latest.contains("new"));
        assertEquals(List.of("new"), latest);
        late.close();

        LogAdmin admin = LogAdmin.of(dataSource, TOPIC);
        admin.resetGroup("late", partition, 7);
        List<String> again = new CopyOnWriteArrayList<>();
        member(group("late"), batch -> batch.records().forEach(r -> again.add(r.payload())));
        Await.until(TIMEOUT, "read again from offset 7", () -> again.size() == 4);
        assertEquals(List.of("old7", "old8", "old9", "new"), again);
        Await.until(TIMEOUT, "late committed what it read", () -> admin.lag().stream()
                .filter(l -> l.group().equals("late")).allMatch(l -> l.lag() == 0));
        admin.resetGroup("late", Instant.now().plusSeconds(3600));
        assertTrue(admin.lag().stream().filter(l -> l.group().equals("late")).allMatch(l -> l.lag() == 0));
    }

    @Test
    void retentionDropsOnlyWhatEveryGroupHasReadUnlessTheSizeSaysOtherwiseAndThenTheGroupIsTold() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        for (int i = 0; i < 5; i++) {
            producer.sendAll(IntStream.range(0, 500).mapToObj(n -> new LogMessage("p", "x".repeat(100))).toList());
        }
        int partition = Partitioner.forKey("p", 4);
        AtomicInteger fast = new AtomicInteger();
        GroupConsumer reader = member(group("fast"), batch -> fast.addAndGet(batch.records().size()));
        Await.until(TIMEOUT, "fast read everything", () -> fast.get() == 2_500);
        reader.close();
        // A second group that has read nothing holds every segment under the consumed-only policy.
        Jdbc.autoCommitted(dataSource, "join", c -> {
            new GroupStore(LogSchema.describe(dataSource, TOPIC), group("slow")).join(c);
            return null;
        });
        assertEquals(0, LogRetention.of(dataSource, TOPIC, RetentionPolicy.consumed()).apply());
        LogAdmin admin = LogAdmin.of(dataSource, TOPIC);
        admin.resetGroup("slow", partition, 2_100);
        assertEquals(2, LogRetention.of(dataSource, TOPIC, RetentionPolicy.consumed()).apply(),
                "segments [0, 1000) and [1000, 2000) are read by both groups; [2000, 3000) is not complete");
        admin.resetGroup("slow", partition, 2_000);

        // A size limit drops what a group has not read; the group is told and does not skip.
        LogSchema.recreate(dataSource, new Topic(TOPIC, 4, 1_000));
        TopicProducer again = dbq.topicProducer(TOPIC);
        for (int i = 0; i < 5; i++) {
            again.sendAll(IntStream.range(0, 500).mapToObj(n -> new LogMessage("p", "x".repeat(100))).toList());
        }
        Jdbc.autoCommitted(dataSource, "join", c -> {
            new GroupStore(LogSchema.describe(dataSource, TOPIC), group("slow")).join(c);
            return null;
        });
        assertEquals(2, LogRetention.of(dataSource, TOPIC, new RetentionPolicy(null, 1, false)).apply());
        AtomicInteger read = new AtomicInteger();
        member(group("slow"), batch -> read.addAndGet(batch.records().size()));
        Await.until(TIMEOUT, "the group is told", () -> !behind.isEmpty());
        assertEquals(0, behind.get(0).committedOffset());
        assertEquals(2_000, behind.get(0).lowOffset());
        assertTrue(LogAdmin.of(dataSource, TOPIC).lag().stream().anyMatch(GroupLag::behindRetention));
        assertEquals(0, read.get());
        LogAdmin.of(dataSource, TOPIC).resetGroup("slow", partition, 2_000);
        Await.until(TIMEOUT, "the reset group reads what is left", () -> read.get() == 500);
    }

    @Test
    void wakeupsCutAnIdleMembersWait() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        CountDownLatch got = new CountDownLatch(1);
        GroupConsumer idle = member(group("idle").withPollInterval(Duration.ofSeconds(60)), batch -> got.countDown());
        Await.until(TIMEOUT, "idle holds the partitions", () -> idle.partitions().size() == 4);
        Await.until(TIMEOUT, "listening", dbq::isListening);
        producer.send(null, "wake up");
        Await.until(Duration.ofSeconds(5), "read long before the 60 s poll", () -> got.getCount() == 0);
    }

    @Test
    void aPartitionWhoseHandlerKeepsFailingDoesNotHoldUpTheOthers() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        int poisoned = Partitioner.forKey("poison", 4);
        producer.send("poison", "never handled");
        List<String> others = IntStream.range(0, 200).mapToObj(i -> "k" + i)
                .filter(k -> Partitioner.forKey(k, 4) != poisoned).toList();
        producer.sendAll(others.stream().map(k -> new LogMessage(k, k)).toList());
        Set<String> handled = ConcurrentHashMap.newKeySet();
        AtomicInteger failures = new AtomicInteger();
        member(group("poisoned"), batch -> {
            if (batch.partition() == poisoned) {
                failures.incrementAndGet();
                throw new IllegalStateException("poison");
            }
            batch.records().forEach(r -> handled.add(r.payload()));
        });
        Await.until(TIMEOUT, "every other partition read", () -> handled.size() == others.size());
        Await.until(TIMEOUT, "the poisoned partition tried", () -> failures.get() >= 1);
        // a batch is committed after its handler returns, so after the records were seen
        Await.until(TIMEOUT, "only the poisoned record is left, not read past", () -> LogAdmin.of(dataSource, TOPIC)
                .lag().stream().filter(l -> l.group().equals("poisoned")).mapToLong(GroupLag::lag).sum() == 1);
    }

    @Test
    void appendsInTheCallersTransactionFindTheSegmentsTheProducerCreatedAhead() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        int partition = Partitioner.forKey("one", 4);
        List<LogMessage> batch = IntStream.range(0, 300).mapToObj(i -> new LogMessage("one", "m" + i)).toList();
        for (long end = 300; end <= 6_000; end += 300) { // across five segment boundaries
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                producer.sendAll(c, batch);
                c.commit();
            }
            long next = end;
            Await.until(TIMEOUT, "the segment of the next append created ahead of it",
                    () -> segmentExists(partition, (next + 299) / 1_000));
        }
        assertEquals(6_000, totalNext());
    }

    @Test
    void anAppendInTheCallersTransactionThatOutrunsTheSegmentsAbortsItAndTheRetrySucceeds() throws Exception {
        TopicProducer producer = dbq.topicProducer(TOPIC);
        int partition = Partitioner.forKey("one", 4);
        producer.sendAll(IntStream.range(0, 2_000).mapToObj(i -> new LogMessage("one", "m" + i)).toList());
        // [2000, 6000) needs segment 5; segments are created at most two ahead of offset 2000 (up to 4)
        List<LogMessage> batch = IntStream.range(0, 4_000).mapToObj(i -> new LogMessage("one", "m" + i)).toList();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            QueueException e = assertThrows(QueueException.class, () -> producer.sendAll(c, batch));
            assertEquals("append to log_contract partition " + partition + " reached a segment that did not exist yet;"
                    + " it has been created, but the caller's transaction is aborted: retry it", e.getMessage());
            c.rollback();
            producer.sendAll(c, batch);
            c.commit();
        }
        assertEquals(6_000, totalNext());
        assertTrue(segmentExists(partition, 5));
    }

    private static boolean segmentExists(int partition, long segment) {
        try {
            return TestDatabase.queryLong("SELECT count(*) FROM pg_class WHERE relname = '" + TOPIC + "_p" + partition
                    + "_s" + segment + "'") == 1;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void badInputIsRefusedWithAPreciseMessage() {
        assertEquals("unknown topic 'no_such_topic': no row in dbq_topics; create it with LogSchema.create",
                assertThrows(IllegalArgumentException.class, () -> dbq.topicProducer("no_such_topic")).getMessage());
        assertEquals("topic name 'bad; DROP TABLE x' is not a valid identifier: use 1 to 40 characters from a-z, 0-9 and _, not starting with a digit",
                assertThrows(IllegalArgumentException.class, () -> LogAdmin.of(dataSource, "bad; DROP TABLE x")).getMessage());
        LogAdmin admin = LogAdmin.of(dataSource, TOPIC);
        assertEquals("topic log_contract has partitions 0 to 3, not 4",
                assertThrows(IllegalArgumentException.class, () -> admin.resetGroup("g", 4, 0)).getMessage());
        assertEquals("offset must not be negative, was -1",
                assertThrows(IllegalArgumentException.class, () -> admin.resetGroup("g", 0, -1)).getMessage());
        assertEquals("group g has never read topic log_contract: start a member of it first",
                assertThrows(IllegalArgumentException.class, () -> admin.resetGroup("g", 0, 5)).getMessage());
        member(group("g"), batch -> {
        }); // joins the group before it returns
        assertEquals("topic log_contract partition 0 holds offsets 0 to -1; a group can be set to 0 to 0, not 5",
                assertThrows(IllegalArgumentException.class, () -> admin.resetGroup("g", 0, 5)).getMessage());
        TopicProducer producer = dbq.topicProducer(TOPIC);
        assertEquals("append to log_contract: message 0 has a null payload",
                assertThrows(IllegalArgumentException.class, () -> producer.send("k", null)).getMessage());
        assertEquals("append to log_contract: no messages",
                assertThrows(IllegalArgumentException.class, () -> producer.sendAll(List.of())).getMessage());
        assertEquals("append to log_contract: message 1's payload contains a NUL character (U+0000) at index 1, which"
                        + " PostgreSQL text cannot store",
                assertThrows(IllegalArgumentException.class, () -> producer.sendAll(
                        List.of(LogMessage.of("fine"), LogMessage.of("a\0b")))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> producer.send("k\uDFFF", "x")).getMessage()
                .startsWith("append to log_contract: message 0's key contains an unpaired UTF-16 surrogate (U+DFFF)"));
        assertEquals("batchSize must be 1 to 10000, was 0",
                assertThrows(IllegalArgumentException.class, () -> GroupConfig.of(TOPIC, "g").withBatchSize(0)).getMessage());
        assertEquals(0, totalNext());
    }

    /**
     * A producer of a closed door refuses before writing; the door hands out one producer per topic, and a new one
     * once a caller closed it.
     */
    @Test
    void aClosedDoorsTopicProducerStoresNothing() throws Exception {
        DbQueue door = DbQueue.builder(dataSource).build();
        TopicProducer producer = door.topicProducer(TOPIC);
        assertSame(producer, door.topicProducer(TOPIC), "one producer per topic");
        producer.close(); // a caller closing the shared producer: the next call gets a new one
        TopicProducer next = door.topicProducer(TOPIC);
        assertFalse(next.isClosed());
        door.close();
        assertEquals("the producer of topic log_contract is closed",
                assertThrows(IllegalStateException.class, () -> next.send("k", "after close")).getMessage());
        assertEquals(0, totalNext());
    }

    /**
     * Stopping several members waits up to the timeout in all: each member of two groups holds a batch it does not
     * finish, and waiting for each in turn the full timeout would take twice as long.
     */
    @Test
    void membersStoppedTogetherAreWaitedForUpToTheTimeoutInAll() throws Exception {
        CountDownLatch holding = new CountDownLatch(2);
        List<Boolean> interrupted = new CopyOnWriteArrayList<>();
        RecordHandler holds = batch -> {
            holding.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.add(true);
                throw e;
            }
        };
        List<GroupConsumer> members = List.of(member(group("first"), holds), member(group("second"), holds));
        dbq.topicProducer(TOPIC).send("k", "held");
        assertTrue(holding.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "both members hold the record");

        Duration timeout = Duration.ofSeconds(2);
        long start = System.nanoTime();
        GroupConsumer.shutdownAll(members, timeout);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertTrue(took.compareTo(timeout.multipliedBy(2)) < 0, "took " + took);
        assertEquals(List.of(true, true), interrupted);
        assertTrue(members.stream().noneMatch(GroupConsumer::isRunning));
    }
}

