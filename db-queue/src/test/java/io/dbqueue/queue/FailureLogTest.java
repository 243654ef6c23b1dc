package io.dbqueue.queue;

import io.dbqueue.StandardError;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lines themselves, fed by hand; {@code io.dbqueue.FailureLoggingTest} has the workers feed them. */
class FailureLogTest {

    private final AtomicLong now = new AtomicLong();
    private final QueueLocation queue = QueueTable.of(Layout.DBQ_SEQ).queue("failure-log-" + System.nanoTime());

    private static Task task(long id, int attempt) {
        return new Task(id, "q", "payload", Instant.now(), attempt, 0, attempt);
    }

    @Test
    void aFailedAttemptIsAWarningAndADeadLetteringAnError() {
        FailureLog log = new FailureLog(FailureLog.Level.WARN, new LogRateLimit(10, Duration.ofMinutes(1), now::get));
        try (StandardError err = StandardError.capture()) {
            log.failed(queue, task(41, 1), "IllegalStateException: boom", false);
            log.failed(queue, task(42, 3), "IllegalStateException: bang", true);

            assertTrue(err.text().contains("WARN io.dbqueue.queue.FailureLog - " + queue
                    + ": task 41 failed on attempt 1: IllegalStateException: boom"), err.text());
            assertTrue(err.text().contains("ERROR io.dbqueue.queue.FailureLog - " + queue
                    + ": task 42 moved to the dead letters after attempt 3: IllegalStateException: bang"), err.text());
        }
    }

    @Test
    void linesOverTheLimitAreCountedAndTheCountLogged() {
        FailureLog log = new FailureLog(FailureLog.Level.WARN, new LogRateLimit(2, Duration.ofMinutes(1), now::get));
        try (StandardError err = StandardError.capture()) {
            for (int id = 1; id <= 5; id++) {
                log.failed(queue, task(id, 1), "boom", false);
            }
            log.failed(queue, task(6, 9), "boom", true); // dead letters have limits of their own
            now.addAndGet(Duration.ofMinutes(1).toNanos());
            log.failed(queue, task(7, 1), "boom", false);

            String text = err.text();
            assertEquals(4, text.lines().filter(l -> l.contains(queue + ": task")).count(), text);
            assertFalse(text.contains("task 3 failed"), text);
            assertTrue(text.contains("task 6 moved to the dead letters"), text);
            assertTrue(text.contains(queue + ": 3 more failed attempts were not logged (at most 2 lines per PT1M)"),
                    text);
        }
    }

    @Test
    void atErrorOnlyDeadLetteringsAreLogged() {
        FailureLog log = new FailureLog(FailureLog.Level.ERROR, new LogRateLimit(10, Duration.ofMinutes(1), now::get));
        try (StandardError err = StandardError.capture()) {
            log.failed(queue, task(1, 1), "boom", false);
            log.failed(queue, task(2, 2), "boom", true);

            assertFalse(err.text().contains("task 1 "), err.text());
            assertTrue(err.text().contains("task 2 moved to the dead letters"), err.text());
        }
    }

    @Test
    void offIsNoListenerAtAll() {
        assertEquals(QueueListener.NONE, FailureLog.of(FailureLog.Level.OFF));
    }
}
