package io.dbqueue.producer;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MessageBatcherTest {

    private static final QueueTable TABLE = new QueueTable("batcher_test", Layout.QUEUE_TASKS_5);
    private static HikariDataSource dataSource;
    private static QueueProducer producer;

    @BeforeAll
    static void createTable() throws SQLException {
        dataSource = PostgresServer.shared().dataSource(8);
        producer = new QueueProducer(dataSource, TABLE.queue("messages"));
    }

    @BeforeEach
    void emptyTable() throws SQLException {
        Schema.recreate(dataSource, TABLE);
    }

    @AfterAll
    static void closePool() {
        dataSource.close();
    }

    @Test
    void concurrentSubmissionsAreAllStoredOnceInFullBatchesAndALingeringTail() throws Exception {
        List<Integer> batchSizes = new java.util.concurrent.CopyOnWriteArrayList<>();
        MessageBatcher batcher = new MessageBatcher(payloads -> {
            batchSizes.add(payloads.size());
            return producer.enqueueAll(payloads);
        }, 10, Duration.ofMillis(5));
        int threads = 8;
        int perThread = 126; // 1008 payloads: full batches, and a tail only the linger timer writes
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<CompletableFuture<Long>>>> submitted = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            submitted.add(pool.submit(() -> {
                List<CompletableFuture<Long>> ids = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    ids.add(batcher.submit("{\"t\":" + thread + ",\"i\":" + i + "}"));
                }
                return ids;
            }));
        }
        Set<Long> ids = new HashSet<>();
        for (Future<List<CompletableFuture<Long>>> f : submitted) {
            for (CompletableFuture<Long> id : f.get(30, TimeUnit.SECONDS)) {
                ids.add(id.get(30, TimeUnit.SECONDS));
            }
        }
        pool.shutdown();
        batcher.close();

        assertThat(ids).hasSize(threads * perThread);
        assertThat(count("SELECT count(*) FROM batcher_test")).isEqualTo(threads * perThread);
        assertThat(count("SELECT count(DISTINCT payload) FROM batcher_test")).isEqualTo(threads * perThread);
        assertThat(batchSizes).allMatch(size -> size >= 1 && size <= 10);
        assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(threads * perThread);
    }

    @Test
    void closeWritesTheTailAndRefusesNewPayloads() throws Exception {
        MessageBatcher batcher = new MessageBatcher(producer::enqueueAll, 10, Duration.ofHours(1));
        List<CompletableFuture<Long>> tail = List.of(batcher.submit("a"), batcher.submit("b"), batcher.submit("c"));
        assertThat(tail).noneMatch(CompletableFuture::isDone);

        batcher.close();

        assertThat(tail).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(count("SELECT count(*) FROM batcher_test")).isEqualTo(3);
        assertThatThrownBy(() -> batcher.submit("d")).isInstanceOf(ProducerClosedException.class);
    }

    @Test
    void aFailedWriteFailsEveryPayloadOfItsBatch() {
        MessageBatcher batcher = new MessageBatcher(payloads -> {
            throw new IllegalStateException("database gone");
        }, 2, Duration.ofHours(1));
        CompletableFuture<Long> first = batcher.submit("a");
        CompletableFuture<Long> second = batcher.submit("b");
        batcher.close();
        assertThat(List.of(first, second)).allMatch(CompletableFuture::isCompletedExceptionally);
    }

    private static int count(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
