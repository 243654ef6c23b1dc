package io.dbqueue.consumer;

import com.sun.net.httpserver.HttpServer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.spring.DbQueues;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
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
    /** A run whose first two reports the fake test-app answers 404, as a wrong URL would be. */
    private static final long NOT_FOUND_TWICE = 404;
    private static final AtomicInteger NOT_FOUND_ANSWERS = new AtomicInteger();
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
     * An answer that says nothing of the report (a 404 from a wrong URL or a restarting proxy) is not a refusal: the
     * report is sent again, where it used to be dropped with its messages finished.
     */
    @Test
    void aReportAnsweredNotFoundIsSentAgainUntilStored() {
        double refusedBefore = meters.counter("consumer.stats.refused").count();
        List<Long> ids = ConsumerTestSupport.enqueue(dataSource, NOT_FOUND_TWICE, 5);

        await().atMost(Duration.ofSeconds(30)).until(() -> statsOf(NOT_FOUND_TWICE).size() >= ids.size());
        assertThat(NOT_FOUND_ANSWERS.get()).isEqualTo(2);
        ConsumerTestSupport.assertTimings(statsOf(NOT_FOUND_TWICE), NOT_FOUND_TWICE, ids);
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
                boolean ofNoRun = text.contains("\"testId\":" + NO_RUN + ",");
                boolean notFound = text.contains("\"testId\":" + NOT_FOUND_TWICE + ",")
                        && NOT_FOUND_ANSWERS.getAndUpdate(n -> Math.min(n + 1, 2)) < 2;
                if (!ofNoRun && !notFound) {
                    RECEIVED.add(report);
                }
                exchange.sendResponseHeaders(ofNoRun ? 422 : notFound ? 404 : 204, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
