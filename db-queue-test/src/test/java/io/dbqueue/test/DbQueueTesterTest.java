package io.dbqueue.test;

import io.dbqueue.queue.Task;
import io.dbqueue.spring.DbQueueTemplate;
import io.dbqueue.spring.QueueConsumerWorkers;
import io.dbqueue.spring.listener.DbQueueListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tester on a context of the starter whose consumer starts only when a test starts it. */
@SpringBootTest(properties = {"dbq.initialize-schema=always", "dbq.auto-startup=false",
        "dbq.queues.greetings.table=dbq_test_greetings", "dbq.queues.greetings.layout=dbq_seq",
        "dbq.queues.greetings.no-task-timeout=20ms"})
@AutoConfigureTestPostgres
@Import(DbQueueTester.class)
class DbQueueTesterTest {

    private static final String QUEUE = "greetings";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    record Greeting(String name) {
    }

    static class Greeter {
        final List<Greeting> greeted = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = QUEUE, deadLetterOn = IllegalArgumentException.class)
        void greet(Greeting greeting) {
            if (greeting.name().isEmpty()) {
                throw new IllegalArgumentException("no one to greet");
            }
            greeted.add(greeting);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
        @Bean
        Greeter greeter() {
            return new Greeter();
        }
    }

    @Autowired
    DbQueueTester tester;

    @Autowired
    DbQueueTemplate queues;

    @Autowired
    QueueConsumerWorkers consumers;

    @Autowired
    Greeter greeter;

    @BeforeEach
    void emptyQueue() {
        tester.drain(QUEUE);
        greeter.greeted.clear();
    }

    @AfterEach
    void stopConsumers() {
        consumers.stop();
    }

    @Test
    void enqueuedReadsTheWaitingTasksOldestFirst() {
        queues.sendAll(QUEUE, List.of(new Greeting("ada"), new Greeting("grace")));

        assertThat(tester.enqueuedPayloads(QUEUE)).containsExactly("{\"name\":\"ada\"}", "{\"name\":\"grace\"}");
        assertThat(tester.enqueued(QUEUE, Greeting.class)).containsExactly(new Greeting("ada"), new Greeting("grace"));
    }

    @Test
    void assertEnqueuedFailsListingWhatTheQueueHolds() {
        queues.send(QUEUE, new Greeting("ada"));

        tester.assertEnqueued(QUEUE, new Greeting("ada"));
        assertThatThrownBy(() -> tester.assertEnqueued(QUEUE, new Greeting("grace")))
                .isInstanceOf(AssertionError.class)
                .hasMessage("queue 'greetings' holds no message equal to Greeting[name=grace]; it holds 1: "
                        + "[Greeting[name=ada]]");
    }

    @Test
    void awaitProcessedReturnsOnceTheConsumerHasHandledEveryTask() throws InterruptedException {
        List<Greeting> sent = List.of(new Greeting("ada"), new Greeting("grace"), new Greeting("barbara"));
        queues.sendAll(QUEUE, sent);

        consumers.start();
        tester.awaitProcessed(QUEUE, TIMEOUT);
        assertThat(greeter.greeted).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(tester.enqueuedPayloads(QUEUE)).isEmpty();
    }

    @Test
    void awaitProcessedFailsNamingTheTasksLeftWhenNoConsumerRuns() {
        long id = queues.send(QUEUE, new Greeting("ada"));

        assertThatThrownBy(() -> tester.awaitProcessed(QUEUE, Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("queue 'greetings' still holds 1 task(s) after PT0.3S, e.g. [#" + id
                        + " attempt 0: {\"name\":\"ada\"}]");
    }

    @Test
    void aTaskThatCannotBeHandledIsProcessedIntoTheDeadLetters() throws InterruptedException {
        queues.sendAll(QUEUE, List.of(new Greeting(""), new Greeting("ada")));

        consumers.start();
        tester.awaitProcessed(QUEUE, TIMEOUT);
        assertThat(greeter.greeted).containsExactly(new Greeting("ada"));
        assertThat(tester.deadLetters(QUEUE)).singleElement().satisfies(dead -> {
            assertThat(dead.payload()).isEqualTo("{\"name\":\"\"}");
            assertThat(dead.lastError()).contains("no one to greet");
        });
    }

    @Test
    void drainDeletesTheTasksAndTheDeadLetters() throws InterruptedException {
        queues.send(QUEUE, new Greeting(""));
        consumers.start();
        tester.awaitProcessed(QUEUE, TIMEOUT);
        consumers.stop();
        queues.sendAll(QUEUE, List.of(new Greeting("ada"), new Greeting("grace")));
        assertThat(tester.deadLetters(QUEUE)).hasSize(1);

        assertThat(tester.drain(QUEUE)).extracting(Task::payload)
                .containsExactly("{\"name\":\"ada\"}", "{\"name\":\"grace\"}");
        assertThat(tester.enqueuedPayloads(QUEUE)).isEmpty();
        assertThat(tester.deadLetters(QUEUE)).isEmpty();
    }
}
