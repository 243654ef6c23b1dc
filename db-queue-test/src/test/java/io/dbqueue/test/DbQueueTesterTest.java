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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tester on a context of the starter whose consumer starts only when a test starts it. */
@SpringBootTest(properties = {"dbq.initialize-schema=always", "dbq.auto-startup=false",
        "dbq.queues.greetings.table=dbq_test_greetings", "dbq.queues.greetings.layout=dbq_seq",
        "dbq.queues.greetings.no-task-timeout=20ms", "dbq.queues.notes.table=dbq_test_greetings",
        "dbq.queues.notes.layout=dbq_seq", "dbq.queues.notes.mode=at-most-once", "dbq.queues.notes.no-task-timeout=20ms"})
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

    /** At most once: its claim deletes the task; the handler holds it until the test lets it go. */
    static class Noter {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> noted = new CopyOnWriteArrayList<>();

        @DbQueueListener(queue = "notes")
        void note(String note) throws InterruptedException {
            started.countDown();
            if (release.await(30, TimeUnit.SECONDS)) {
                noted.add(note);
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
        @Bean
        Greeter greeter() {
            return new Greeter();
        }

        @Bean
        Noter noter() {
            return new Noter();
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

    @Autowired
    Noter noter;

    @BeforeEach
    void emptyQueue() {
        tester.drain(QUEUE);
        tester.drain("notes");
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

    /** At most once the queue is empty as soon as the claim deleted the task: the wait lasts until it is handled. */
    @Test
    void awaitProcessedWaitsForAnAtMostOnceHandlerThatHoldsItsTask() throws InterruptedException {
        queues.send("notes", "remember the milk");
        consumers.start();
        assertThat(noter.started.await(30, TimeUnit.SECONDS)).as("the handler has the task").isTrue();

        assertThatThrownBy(() -> tester.awaitProcessed("notes", Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("still holds 0 task(s) and 1 of its workers are busy");
        noter.release.countDown();
        tester.awaitProcessed("notes", TIMEOUT);
        assertThat(noter.noted).containsExactly("remember the milk");
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
                .hasMessage("queue 'greetings' still holds 1 task(s) and 0 of its workers are busy after"
                        + " PT0.3S, e.g. [#" + id + " attempt 0: {\"name\":\"ada\"}]");
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
