package io.dbqueue;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two real servers; shard b's is stopped and started again while the door runs. */
class ShardDownTest {

    private static final QueueTable TABLE = QueueTable.of(Layout.DBQ_SEQ);

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HikariDataSource pool(PostgresServer server) {
        HikariDataSource pool = server.dataSource(10);
        pool.setConnectionTimeout(1000); // an enqueue to the stopped shard fails within a second
        return pool;
    }

    /**
     * A shard that is down while the door starts, with a topic's retention set on every shard, stops only what
     * lives on it: the door builds, and a queue on the shard that is up takes enqueues.
     */
    @Test
    void aShardThatIsDownAtTheStartStopsOnlyWhatLivesOnIt() throws Exception {
        HikariDataSource a = TestDatabase.dataSource();
        Schema.createIfMissing(a, TABLE);
        Topic topic = Topic.of("retained_while_down", 1);
        LogSchema.recreate(a, topic);
        try (HikariDataSource b = unreachable(); ShardedDbQueue dbq = DbQueue.builder(ShardSet.builder().shard("a", a).shard("b", b).build())
                .placement(Placement.hashed().queue("up", "a"))
                .eachShard((name, door) -> door.retention(topic.name(), RetentionPolicy.consumed(), Duration.ofHours(1)))
                .build()) {
            long id = dbq.producer(TABLE.queue("up")).enqueue("while b is down");
            assertTrue(id > 0);
            List<ShardHealth> health = dbq.health();
            assertTrue(health.get(0).up(), health.toString());
            assertFalse(health.get(1).up(), health.toString());
        }
    }

    /**
     * A release whose start on the new shard fails (its server down) leaves this door's consumers on the old shard
     * and the move unreleased, so that it can be released again; they used to be left stopped on both.
     */
    @Test
    void aReleaseThatCannotStartOnTheNewShardLeavesTheConsumersOnTheOld() throws Exception {
        HikariDataSource a = TestDatabase.dataSource();
        Schema.createIfMissing(a, TABLE);
        QueueLocation queue = TABLE.queue("moving-to-a-shard-down");
        try (HikariDataSource b = unreachable(); ShardedDbQueue dbq = DbQueue.builder(ShardSet.builder()
                .shard("a", a).shard("b", b).build()).placement(Placement.hashed().queue(queue.queueName(), "a")).build()) {
            // a history is made ready where the consumers start: a database call on b
            ShardedWorkers workers = dbq.consume(QueueConfig.of(queue).withHistory(Duration.ofDays(1)), batch -> { });
            dbq.moveQueue(queue, "b");
            assertTrue(dbq.awaitDrained(queue, Duration.ofSeconds(30)));
            assertThrows(RuntimeException.class, () -> dbq.releaseQueue(queue));
            assertEquals(Set.of("a"), workers.byShard().keySet());
            assertTrue(workers.isRunning());
            RuntimeException again = assertThrows(RuntimeException.class, () -> dbq.releaseQueue(queue));
            assertFalse(again.getMessage().contains("not moving"), again.getMessage());
        }
    }

    /**
     * The shards are checked at once: one after the other, a check with two shards down took both pools' connection
     * timeouts (30 s each by default), longer than a load balancer's health probe waits. Here each shard lets a check
     * through only once the other shard's check has asked for a connection too.
     */
    @Test
    void theShardsAreCheckedAtOnce() throws Exception {
        AtomicBoolean checking = new AtomicBoolean();
        CountDownLatch bothAsked = new CountDownLatch(2);
        DataSource a = TestDatabase.dataSource();
        try (ShardedDbQueue dbq = DbQueue.builder(ShardSet.builder().shard("a", meeting(a, checking, bothAsked))
                .shard("b", meeting(a, checking, bothAsked)).build()).build()) {
            checking.set(true);
            List<ShardHealth> health = dbq.health();
            assertTrue(health.stream().allMatch(ShardHealth::up), health.toString());
        }
    }

    /** {@code target}, whose connections, once {@code checking}, wait for {@code bothAsked} to open (10 s at most). */
    private static DataSource meeting(DataSource target, AtomicBoolean checking, CountDownLatch bothAsked) {
        return CheckedDataSource.of(target, () -> {
            if (checking.get()) {
                bothAsked.countDown();
                if (!bothAsked.await(10, TimeUnit.SECONDS)) {
                    throw new SQLException("the other shard was not checked meanwhile");
                }
            }
        });
    }

    /**
     * A release that can start this door's consumers neither on the new shard nor back on the old one (it went down
     * meanwhile) throws the first failure with the second added to it, and leaves the move to be released again.
     */
    @Test
    void aReleaseThatCannotGoBackEitherReportsBothFailures() throws Exception {
        HikariDataSource real = TestDatabase.dataSource();
        Schema.createIfMissing(real, TABLE);
        QueueLocation queue = TABLE.queue("moving-while-both-go-down");
        AtomicBoolean releasing = new AtomicBoolean();
        AtomicBoolean aDown = new AtomicBoolean();
        try (HikariDataSource down = unreachable(); ShardedDbQueue dbq = DbQueue.builder(ShardSet.builder()
                .shard("a", CheckedDataSource.of(real, () -> {
                    if (aDown.get()) {
                        throw new SQLException("shard a went down");
                    }
                }))
                .shard("b", CheckedDataSource.of(down, () -> aDown.set(releasing.get()))) // a goes down as b is tried
                .build()).placement(Placement.hashed().queue(queue.queueName(), "a")).build()) {
            // a history is made ready where the consumers start: a database call on each shard
            ShardedWorkers workers = dbq.consume(QueueConfig.of(queue).withHistory(Duration.ofDays(1)), batch -> { });
            dbq.moveQueue(queue, "b");
            assertTrue(dbq.awaitDrained(queue, Duration.ofSeconds(30)));
            releasing.set(true);
            RuntimeException failed = assertThrows(RuntimeException.class, () -> dbq.releaseQueue(queue));
            assertEquals(1, failed.getSuppressed().length, "the failed start on a goes with b's");
            assertTrue(failed.getSuppressed()[0].toString().contains("shard a went down"), failed.getSuppressed()[0].toString());
            assertEquals(Set.of(), workers.byShard().keySet());
            aDown.set(false);
            releasing.set(false);
            RuntimeException again = assertThrows(RuntimeException.class, () -> dbq.releaseQueue(queue));
            assertFalse(again.getMessage().contains("not moving"), again.getMessage());
            assertEquals(Set.of("a"), workers.byShard().keySet(), "back on a");
        }
    }

    /** A pool of a server that is down: it opens all the same, as at a restart while its server is down. */
    private static HikariDataSource unreachable() throws IOException {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + freePort() + "/postgres");
        pool.setInitializationFailTimeout(-1);
        pool.setConnectionTimeout(500);
        return pool;
    }

    @Test
    void aShardThatIsDownStopsOnlyWhatLivesOnItAndResumesWhenItReturns(@TempDir Path dataB) throws Exception {
        int portB = freePort();
        PostgresServer serverB = PostgresServer.embeddedAt(dataB, portB);
        try (PostgresServer serverA = PostgresServer.embedded(Map.of());
             HikariDataSource a = pool(serverA); HikariDataSource b = pool(serverB)) {
            Schema.recreate(a, TABLE);
            Schema.recreate(b, TABLE);
            QueueLocation onA = TABLE.queue("on-a");
            QueueLocation onB = TABLE.queue("on-b");
            ShardSet shards = ShardSet.builder().shard("a", a).shard("b", b).build();
            Placement placement = Placement.hashed().queue("on-a", "a").queue("on-b", "b");
            ConcurrentLinkedQueue<String> handled = new ConcurrentLinkedQueue<>();
            PollSettings poll = PollSettings.DEFAULT.withTimeouts(Duration.ofMillis(10), Duration.ofMillis(100),
                    Duration.ofMillis(200));
            try (ShardedDbQueue dbq = DbQueue.builder(shards).placement(placement).build()) {
                for (QueueLocation queue : List.of(onA, onB)) {
                    dbq.consume(QueueConfig.of(queue).withPoll(poll),
                            batch -> batch.tasks().forEach(t -> handled.add(t.payload())));
                }
                dbq.producer(onA).enqueue("a before");
                dbq.producer(onB).enqueue("b before");
                Await.until(Duration.ofSeconds(30), "both handled", () -> handled.size() == 2);
                Topic topic = Topic.of("events", 2); // partition 0 on a, 1 on b
                for (HikariDataSource pool : List.of(a, b)) {
                    LogSchema.drop(pool, topic.name());
                }
                dbq.createTopic(topic);

                serverB.close();
                // a topic's producer asked for while b is down sends to a's partitions, where it failed on b
                ShardedTopicProducer events = dbq.topicProducer(topic.name());
                String keyOnA = IntStream.range(0, 100).mapToObj(i -> "key-" + i)
                        .filter(key -> events.shardOf(topic.partitionOf(key)).equals("a")).findFirst().orElseThrow();
                assertEquals(topic.partitionOf(keyOnA), events.send(keyOnA, "to a while b is down").partition());
                String keyOnB = IntStream.range(0, 100).mapToObj(i -> "key-" + i)
                        .filter(key -> events.shardOf(topic.partitionOf(key)).equals("b")).findFirst().orElseThrow();
                assertEquals("b", assertThrows(ShardUnavailableException.class,
                        () -> events.send(keyOnB, "to b while down")).shard());
                // a pooled connection the stop broke fails with the enqueue sent: its outcome is unknown
                RuntimeException first = assertThrows(RuntimeException.class,
                        () -> dbq.producer(onB).enqueue("b while down"));
                if (first instanceof ShardUnavailableException unavailable) {
                    assertEquals("b", unavailable.shard());
                } else {
                    assertInstanceOf(CommitOutcomeUnknownException.class, first);
                    assertTrue(first.getMessage().contains("on shard b"), first.getMessage());
                }
                ShardUnavailableException down = assertThrows(ShardUnavailableException.class,
                        () -> dbq.producer(onB).enqueue("b still down"));
                assertEquals("b", down.shard());
                assertTrue(down.getMessage().contains("shard b is unavailable"), down.getMessage());
                dbq.producer(onA).enqueue("a while b is down");
                Await.until(Duration.ofSeconds(30), "shard a goes on", () -> handled.contains("a while b is down"));
                List<ShardHealth> health = dbq.health();
                assertTrue(health.get(0).up(), health.toString());
                assertFalse(health.get(1).up(), health.toString());
                assertEquals("b", health.get(1).shard());

                serverB = PostgresServer.embeddedAt(dataB, portB);
                Await.until(Duration.ofSeconds(60), "shard b takes enqueues again", () -> {
                    try {
                        dbq.producer(onB).enqueue("b after");
                        return true;
                    } catch (ShardUnavailableException stillStarting) {
                        return false;
                    }
                });
                Await.until(Duration.ofSeconds(60), "shard b's consumer resumed by itself",
                        () -> handled.contains("b after"));
                assertTrue(dbq.health().get(1).up());
                assertFalse(handled.contains("b while down"), "the enqueue to the stopped server stored nothing");
                assertFalse(handled.contains("b still down"), "the refused enqueue stored nothing");
            }
        } finally {
            serverB.close();
        }
    }
}
