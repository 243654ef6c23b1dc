package io.dbqueue.consumer;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the consumer tests share: the database, the queue they fill, and the checks on reported timings. */
final class ConsumerTestSupport {

    static final QueueTable TABLE = new QueueTable("consumer_test", Layout.QUEUE_TASKS_5);

    private ConsumerTestSupport() {
    }

    static void database(DynamicPropertyRegistry registry) {
        PostgresServer db = PostgresServer.shared();
        registry.add("spring.datasource.url", db::jdbcUrl);
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
        registry.add("dbq.initialize-schema", () -> "always");
        registry.add("dbq.queues.messages.table", TABLE::name);
        registry.add("dbq.queues.messages.layout", () -> "queue_tasks_5");
        registry.add("dbq.queues.messages.threads", () -> "4");
    }

    /** Enqueues {@code count} messages of run {@code testId} and returns their task ids. */
    static List<Long> enqueue(DataSource dataSource, long testId, int count) {
        List<String> payloads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            payloads.add("{\"message\":\"Hello " + i + "\",\"testId\":" + testId + "}");
        }
        return new QueueProducer(dataSource, TABLE.queue("messages")).enqueueAll(payloads);
    }

    static List<Stat> parse(ObjectMapper json, Collection<byte[]> batches) {
        List<Stat> stats = new ArrayList<>();
        for (byte[] batch : batches) {
            stats.addAll(List.of(json.readValue(batch, Stat[].class)));
        }
        return stats;
    }

    /** Every task reported once, for its run, with enqueue <= claim <= completion. */
    static void assertTimings(List<Stat> stats, long testId, List<Long> taskIds) {
        assertThat(stats).extracting(Stat::taskId).containsExactlyInAnyOrderElementsOf(taskIds);
        assertThat(stats).allSatisfy(stat -> {
            assertThat(stat.testId()).isEqualTo(testId);
            assertThat(stat.claimedAtMicros()).isGreaterThanOrEqualTo(stat.enqueuedAtMicros());
            assertThat(stat.completedAtMicros()).isGreaterThanOrEqualTo(stat.claimedAtMicros());
        });
    }
}
