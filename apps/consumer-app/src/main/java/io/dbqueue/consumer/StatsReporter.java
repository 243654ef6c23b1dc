package io.dbqueue.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Delivers statistics to test-app before their messages are acknowledged: a handler's
 * {@link #deliver} returns only once test-app (or RabbitMQ, with a publisher confirm) has them, so
 * a consumer killed at any moment has reported every message it finished (a message reported and
 * then redelivered is reported twice, and test-app stores it once). The handlers' statistics travel
 * together: one background thread sends whatever waits, up to {@code batchSize}, as soon as the
 * previous report is answered, so reports grow with the load instead of one per batch. A report
 * that cannot be delivered is retried until it is, and its handlers wait meanwhile; one test-app
 * refuses for good ({@link StatsRefusedException}: a body too long, say) is sent again one
 * handler's statistics at a time, so that the others' are not lost with the one refused; what is
 * refused alone is dropped with an error, counted in {@code consumer.stats.refused}, and its
 * messages finish. The time spent sending is the timer {@code consumer.stats.send}.
 */
final class StatsReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatsReporter.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final long IDLE_CHECK_MILLIS = 100;

    private final StatsSender sender;
    private final int batchSize;
    private final LinkedBlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>();
    private final Timer sendTimer;
    private final Counter refused;
    private final Thread flusher;
    private volatile boolean running = true;

    StatsReporter(StatsSender sender, int batchSize, MeterRegistry meters) {
        this.sender = sender;
        this.batchSize = batchSize;
        this.sendTimer = Timer.builder("consumer.stats.send").description("Time to deliver one report of statistics")
                .register(meters);
        this.refused = Counter.builder("consumer.stats.refused")
                .description("Statistics test-app refused for good, dropped").register(meters);
        this.flusher = new Thread(this::flushUntilClosed, "stats-reporter");
        flusher.start();
    }

    /** Returns once {@code stats} are delivered. */
    void deliver(List<Stat> stats) throws InterruptedException {
        if (stats.isEmpty()) {
            return;
        }
        if (!running) {
            throw new IllegalStateException("the statistics reporter is closed; the messages stay unacknowledged");
        }
        Waiting entry = new Waiting(stats);
        waiting.add(entry);
        entry.delivered.await();
    }

    private void flushUntilClosed() {
        List<Waiting> report = new ArrayList<>();
        while (running || !waiting.isEmpty()) {
            try {
                Waiting first = waiting.poll(IDLE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                report.add(first);
                int size = first.stats.size();
                for (Waiting next; size < batchSize && (next = waiting.poll()) != null; size += next.stats.size()) {
                    report.add(next);
                }
                send(report);
                report.forEach(entry -> entry.delivered.countDown());
                report.clear();
            } catch (InterruptedException e) {
                LOG.warn("statistics reporter interrupted; {} reports not sent, their messages stay unacknowledged",
                        report.size() + waiting.size());
                return;
            }
        }
    }

    /** Sends the handlers' statistics together; refused, one handler's at a time. */
    private void send(List<Waiting> report) throws InterruptedException {
        if (report.size() == 1) {
            sendOrDrop(report.get(0).stats);
            return;
        }
        List<Stat> stats = new ArrayList<>();
        report.forEach(entry -> stats.addAll(entry.stats));
        try {
            sendUntilAnswered(stats);
        } catch (StatsRefusedException e) {
            LOG.warn("a report of {} handlers' statistics refused by {}, sending each handler's alone: {}",
                    report.size(), sender, e.getMessage());
            for (Waiting entry : report) {
                sendOrDrop(entry.stats);
            }
        }
    }

    /** Sends {@code stats}; drops them if they are refused for good. */
    private void sendOrDrop(List<Stat> stats) throws InterruptedException {
        try {
            sendUntilAnswered(stats);
        } catch (StatsRefusedException e) {
            refused.increment(stats.size());
            LOG.error("{} statistics dropped, refused for good by {}: {}", stats.size(), sender, e.getMessage());
        }
    }

    /** Sends {@code stats} until they are delivered or refused for good, waiting longer after each failure. */
    private void sendUntilAnswered(List<Stat> stats) throws InterruptedException, StatsRefusedException {
        Duration backoff = Duration.ofMillis(100);
        while (true) {
            long start = System.nanoTime();
            try {
                sender.send(stats);
                sendTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return;
            } catch (InterruptedException | StatsRefusedException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("could not send {} statistics to {}, retrying in {} ms: {}", stats.size(), sender,
                        backoff.toMillis(), e.toString());
                Thread.sleep(backoff.toMillis());
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** Sends what is waiting, giving up after 30 s. Called once the workers have stopped. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        flusher.join(Duration.ofSeconds(30).toMillis());
        if (flusher.isAlive()) {
            flusher.interrupt();
            flusher.join();
        }
        LOG.info("statistics: {} reports sent to {} in {} ms", sendTimer.count(), sender,
                Math.round(sendTimer.totalTime(TimeUnit.MILLISECONDS)));
    }

    /** One handler's statistics, and the latch it waits on. */
    private static final class Waiting {
        final List<Stat> stats;
        final CountDownLatch delivered = new CountDownLatch(1);

        Waiting(List<Stat> stats) {
            this.stats = stats;
        }
    }
}
