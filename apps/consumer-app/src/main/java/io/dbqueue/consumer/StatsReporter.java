package io.dbqueue.consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Collects statistics from the worker threads and sends them in batches on one background thread,
 * so that reporting never blocks the workers: a batch goes out when it is full or every
 * {@code flushInterval}. A batch that cannot be delivered is retried until it is (test-app
 * restarting must not lose a run's figures). The time spent sending is the timer
 * {@code consumer.stats.send}.
 */
final class StatsReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatsReporter.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private final StatsSender sender;
    private final int batchSize;
    private final Duration flushInterval;
    private final LinkedBlockingQueue<Stat> waiting = new LinkedBlockingQueue<>();
    private final Timer sendTimer;
    private final Thread flusher;
    private volatile boolean running = true;

    StatsReporter(StatsSender sender, int batchSize, Duration flushInterval, MeterRegistry meters) {
        this.sender = sender;
        this.batchSize = batchSize;
        this.flushInterval = flushInterval;
        this.sendTimer = Timer.builder("consumer.stats.send").description("Time to deliver one batch of statistics")
                .register(meters);
        this.flusher = new Thread(this::flushUntilClosed, "stats-reporter");
        flusher.start();
    }

    void add(Stat stat) {
        waiting.add(stat);
    }

    private void flushUntilClosed() {
        List<Stat> batch = new ArrayList<>(batchSize);
        while (running || !waiting.isEmpty()) {
            try {
                Stat first = waiting.poll(flushInterval.toNanos(), TimeUnit.NANOSECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch, batchSize - 1);
                deliver(batch);
                batch.clear();
            } catch (InterruptedException e) {
                LOG.warn("statistics reporter interrupted; {} statistics not sent", batch.size() + waiting.size());
                return;
            }
        }
    }

    private void deliver(List<Stat> batch) throws InterruptedException {
        Duration backoff = Duration.ofMillis(100);
        while (true) {
            long start = System.nanoTime();
            try {
                sender.send(batch);
                sendTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("could not send {} statistics to {}, retrying in {} ms: {}", batch.size(), sender,
                        backoff.toMillis(), e.toString());
                Thread.sleep(backoff.toMillis());
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** Sends what is waiting, giving up after 30 s. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        flusher.join(Duration.ofSeconds(30).toMillis());
        if (flusher.isAlive()) {
            flusher.interrupt();
            flusher.join();
        }
        LOG.info("statistics: {} batches sent to {} in {} ms", sendTimer.count(), sender,
                Math.round(sendTimer.totalTime(TimeUnit.MILLISECONDS)));
    }
}
