package io.dbqueue.consumer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The reporter's handling of test-app's answers, with a sender that stands in for test-app. */
class StatsReporterTest {

    private static final long REFUSED_TASK = 13;

    /**
     * A report that merged several handlers' statistics and is refused for good is sent again one handler's at a
     * time: only the one refused is dropped. The whole merged report used to be dropped, every handler's
     * statistics with it, while all their messages finished.
     */
    @Test
    void aRefusedReportOfSeveralHandlersDropsOnlyTheRefusedHandlersStatistics() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<List<Stat>> stored = new CopyOnWriteArrayList<>();
        StatsSender testApp = stats -> {
            if (stats.stream().anyMatch(stat -> stat.taskId() == 1)) {
                firstHeld.countDown();
                releaseFirst.await();
            }
            if (stats.stream().anyMatch(stat -> stat.taskId() == REFUSED_TASK)) {
                throw new StatsRefusedException("test-app answered 400: task " + REFUSED_TASK, null);
            }
            stored.add(stats);
        };
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (StatsReporter reporter = new StatsReporter(testApp, 1000, meters)) {
            Thread first = deliver(reporter, stat(1));
            firstHeld.await();
            Thread refused = deliver(reporter, stat(REFUSED_TASK));
            Thread other = deliver(reporter, stat(2), stat(3));
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting(refused) && waiting(other));
            releaseFirst.countDown(); // the next report merges the two that wait
            for (Thread t : List.of(first, refused, other)) {
                t.join();
            }
        }
        assertThat(stored).containsExactly(List.of(stat(1)), List.of(stat(2), stat(3)));
        assertThat(meters.counter("consumer.stats.refused").count()).isEqualTo(1);
    }

    private static Stat stat(long taskId) {
        return new Stat(7, taskId, 1, 2, 3);
    }

    private static Thread deliver(StatsReporter reporter, Stat... stats) {
        Thread thread = new Thread(() -> {
            try {
                reporter.deliver(List.of(stats));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        thread.start();
        return thread;
    }

    /** Whether {@code handler} waits in {@link StatsReporter#deliver} for its statistics to be delivered. */
    private static boolean waiting(Thread handler) {
        return handler.getState() == Thread.State.WAITING && List.of(handler.getStackTrace()).stream()
                .anyMatch(frame -> frame.getMethodName().equals("deliver"));
    }
}
