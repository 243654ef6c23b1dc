package io.dbqueue;

import io.dbqueue.queue.FailureLog;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.RetryPolicy.RetryType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The door logs its consumers' failures unless told not to: an operator sees them without writing code. */
class FailureLoggingTest {

    private static final RetryPolicy TWO_QUICK_ATTEMPTS = RetryPolicy.of(RetryType.LINEAR, Duration.ofMillis(10), 2);

    @Test
    void aFailedAttemptIsLoggedAtWarnAndTheDeadLetteringAtError() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("logged");
        try (StandardError err = StandardError.capture();
             DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).build()) {
            dbq.consume(QueueConfig.of(queue).withRetry(TWO_QUICK_ATTEMPTS), batch -> {
                throw new IllegalStateException("payment service down");
            });
            long id = dbq.producer(queue).enqueue("pay");

            String dead = "ERROR io.dbqueue.queue.FailureLog - " + queue + ": task " + id
                    + " moved to the dead letters after attempt 2: IllegalStateException: payment service down";
            Await.until(Duration.ofSeconds(30), "the dead-lettering's line", () -> err.text().contains(dead));
            assertTrue(err.text().contains("WARN io.dbqueue.queue.FailureLog - " + queue + ": task " + id
                    + " failed on attempt 1: IllegalStateException: payment service down"), err.text());
        }
    }

    @Test
    void offLogsNothing() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("quiet");
        CountDownLatch deadLettered = new CountDownLatch(1);
        try (StandardError err = StandardError.capture();
             DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).failureLogging(FailureLog.Level.OFF)
                     .listener(new io.dbqueue.queue.QueueListener() {
                         @Override
                         public void failed(QueueLocation q, io.dbqueue.queue.Task task, String error, boolean dead) {
                             if (dead) {
                                 deadLettered.countDown();
                             }
                         }
                     }).build()) {
            dbq.consume(QueueConfig.of(queue).withRetry(TWO_QUICK_ATTEMPTS), batch -> {
                throw new IllegalStateException("payment service down");
            });
            dbq.producer(queue).enqueue("pay");

            assertTrue(deadLettered.await(30, TimeUnit.SECONDS));
            assertFalse(err.text().contains("FailureLog"), err.text());
        }
    }
}
