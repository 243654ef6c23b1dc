package io.dbqueue.consumer;

import com.sun.net.httpserver.HttpServer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.spring.DbQueues;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Statistics over HTTP: test-app is stood in for by a server that keeps what it is sent. */
@SpringBootTest(properties = {"dbq.queues.messages.retry.max-attempts=1", "consumer.stats.batch-size=100"})
class HttpStatsTest {

    private static final Queue<byte[]> RECEIVED = new ConcurrentLinkedQueue<>();
    /** A run the fake test-app does not know: it answers 422 to a report naming it. */
    private static final long NO_RUN = 666;
    /**
     * Runs whose first two reports the fake test-app answers with the run's number as the status: 404, as a wrong URL
     * would be, and 302, as a proxy that redirects would be.
     */
    private static final Map<Long, AtomicInteger> ANSWERED_TWICE = Map.of(404L, new AtomicInteger(),
            302L, new AtomicInteger());
    private static final HttpServer TEST_APP = fakeTestApp();

    @Autowired
    DataSource dataSource;

    @Autowired
    DbQueues queues;

    @Autowired
    ObjectMapper json;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ConsumerTestSupport.database(registry);
        registry.add("consumer.stats.test-app-url", () -> "http://127.0.0.1:" + TEST_APP.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        TEST_APP.stop(0);
    }

    @Test
    void everyProcessedMessageIsReportedOnceInBatches() {
        List<Long> ids = ConsumerTestSupport.enqueue(dataSource, 42, 500);

        await().atMost(Duration.ofSeconds(30)).until(() -> statsOf(42).size() >= ids.size());

        ConsumerTestSupport.assertTimings(statsOf(42), 42, ids);
        // A report leaves as soon as a stat waits and no report is in flight, so how many depends on scheduling.
        assertThat(RECEIVED.size()).as("reports, not one per message").isLessThan(ids.size() / 2);
        assertThat(queues.monitor("messages").depth().tasks()).isZero();
    }

    @Test
    void aMessageWithoutRunIdFailsIntoTheDeadLettersAndIsNotReported() {
        QueueProducer producer = queues.producer("messages");
        long id = producer.enqueue("{\"message\":\"no run\"}");
        DeadLetters dead = queues.deadLetters("messages");

        await().atMost(Duration.ofSeconds(30)).until(() -> dead.count() == 1);
        // Stats are reported in the order they were handled, one report in flight at a time: once a message
        // handled after the failure is reported, a report of the failed one would have come before it.
        long after = ConsumerTestSupport.enqueue(dataSource, 43, 1).get(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> statsOf(43).stream().anyMatch(stat -> stat.taskId() == after));

        assertThat(ConsumerTestSupport.parse(json, RECEIVED)).noneMatch(stat -> stat.taskId() == id);
    }

    /**
     * A message whose testId is too large for a long fails alone: the others of its batch are reported and finish.
     * Its read threw an exception of Jackson's own, which failed the whole batch into its retries.
     */
    @Test
    void aMessageWithAnOutOfRangeRunIdFailsAloneInItsBatch() {
        List<Long> ids = queues.producer("messages").enqueueAll(List.of("{\"message\":\"a\",\"testId\":44}",
                "{\"message\":\"b\",\"testId\":99999999999999999999}", "{\"message\":\"c\",\"testId\":44}"));

        await().atMost(Duration.ofSeconds(30)).until(() -> statsOf(44).size() == 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> queues.deadLetters("messages").list(0, 100).stream()
                .anyMatch(task -> task.id() == ids.get(1)));
        assertThat(queues.deadLetters("messages").list(0, 100)).filteredOn(task -> task.id() == ids.get(1))
                .singleElement().satisfies(task -> assertThat(task.lastError())
                        .contains("payload's testId 99999999999999999999 is out of range"));
        assertThat(statsOf(44)).extracting(Stat::taskId).containsExactlyInAnyOrder(ids.get(0), ids.get(2));
    }

    /** A report test-app refuses for good is dropped, not sent again forever: its messages finish all the same. */
    @Test
    void aReportTestAppRefusesIsDroppedAndItsMessagesFinish() {
        double refusedBefore = meters.counter("consumer.stats.refused").count();
        List<Long> ids = ConsumerTestSupport.enqueue(dataSource, NO_RUN, 5);

        await().atMost(Duration.ofSeconds(30)).until(() -> meters.counter("consumer.stats.refused").count()
                >= refusedBefore + ids.size());
        await().atMost(Duration.ofSeconds(30)).until(() -> queues.monitor("messages").depth().tasks() == 0);
        assertThat(queues.deadLetters("messages").list(0, 100)).noneMatch(task -> ids.contains(task.id()));
    }

    /**
     * An answer that says nothing of the report (a 404 from a wrong URL or a restarting proxy, a redirect) is not a
     * refusal: the report is sent again, where a 404 dropped it with its messages finished, and a 3xx counted as
     * stored, its messages finished and its stats lost.
     */
    @ParameterizedTest
    @ValueSource(longs = {404, 302})
    void aReportAnsweredWithoutStoringItIsSentAgainUntilStored(long status) {
        double refusedBefore = meters.counter("consumer.stats.refused").count();
        List<Long> ids = ConsumerTestSupport.enqueue(dataSource, status, 5);

        await().atMost(Duration.ofSeconds(30)).until(() -> statsOf(status).size() >= ids.size());
        assertThat(ANSWERED_TWICE.get(status).get()).isEqualTo(2);
        ConsumerTestSupport.assertTimings(statsOf(status), status, ids);
        assertThat(meters.counter("consumer.stats.refused").count()).isEqualTo(refusedBefore);
    }

    /** The stats received so far of the run {@code testId}: the tests share the fake test-app. */
    private List<Stat> statsOf(long testId) {
        return ConsumerTestSupport.parse(json, RECEIVED).stream().filter(stat -> stat.testId() == testId).toList();
    }

    private static HttpServer fakeTestApp() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/stats", exchange -> {
                byte[] report = exchange.getRequestBody().readAllBytes();
                String text = new String(report, StandardCharsets.UTF_8);
                int status = text.contains("\"testId\":" + NO_RUN + ",") ? 422 : 204;
                for (Map.Entry<Long, AtomicInteger> run : ANSWERED_TWICE.entrySet()) {
                    if (text.contains("\"testId\":" + run.getKey() + ",")
                            && run.getValue().getAndUpdate(n -> Math.min(n + 1, 2)) < 2) {
                        status = run.getKey().intValue();
                    }
                }
                if (status == 204) {
                    RECEIVED.add(report);
                }
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
