package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The producer threads of an in-process load. Each sends batches of the cell's batch size, paced
 * to the workload's rate (or as fast as possible), and holds back while the backlog is above the
 * workload's maximum so that a fast producer cannot grow the table without bound. Paced producers
 * are spread evenly over the interval, not in step: otherwise all of them would send at the same
 * instant, and the load would arrive as one burst per interval. A paced batch is stamped with the
 * time it was due ({@link Pacing}), so that its latency includes any wait to be sent.
 */
public final class Producers implements AutoCloseable {

    /** Sends one batch and commits it; one per producer thread, closed when the thread ends. */
    public interface Sender extends AutoCloseable {
        void send(List<String> payloads) throws Exception;

        @Override
        default void close() throws Exception {
        }
    }

    @FunctionalInterface
    public interface SenderFactory {
        Sender open() throws Exception;
    }

    private static final long BACKLOG_PAUSE = TimeUnit.MICROSECONDS.toNanos(500);

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure;
    private volatile boolean running = true;

    private Producers(AtomicReference<Throwable> failure) {
        this.failure = failure;
    }

    public static Producers start(Workload workload, int batchSize, Meter meter, SenderFactory senders,
                           AtomicReference<Throwable> failure) {
        Producers producers = new Producers(failure);
        long start = System.nanoTime();
        for (int i = 0; i < workload.producers(); i++) {
            Pacing pacing = Pacing.of(workload.producerRate(), batchSize, workload.producers(), i, start);
            Thread thread = new Thread(() -> producers.produce(workload, batchSize, pacing, meter, senders),
                    "bench-producer-" + (i + 1));
            thread.setDaemon(true);
            producers.threads.add(thread);
        }
        producers.threads.forEach(Thread::start);
        return producers;
    }

    private void produce(Workload workload, int batchSize, Pacing pacing, Meter meter, SenderFactory senders) {
        Payloads payloads = new Payloads(workload.messageSize());
        String[] batch = new String[batchSize];
        List<String> view = Arrays.asList(batch);
        try (Sender sender = senders.open()) {
            while (running) {
                if (meter.waiting() > workload.maxBacklog()) {
                    LockSupport.parkNanos(BACKLOG_PAUSE);
                    continue;
                }
                long stamp = pacing.nextDue(System.nanoTime());
                if (!awaitDue(stamp)) {
                    break;
                }
                // once due, not when the stamp is taken ahead: a window closing meanwhile would owe it forever
                meter.due(batchSize, stamp);
                for (int i = 0; i < batchSize; i++) {
                    batch[i] = payloads.create(stamp);
                }
                sender.send(view);
                meter.acknowledged(batchSize, stamp);
            }
        } catch (Exception e) {
            if (running) {
                failure.compareAndSet(null, e);
            }
        }
    }

    /**
     * Parks until {@code stamp}, however often a park returns early (a batch sent before its stamp would understate
     * its latency); false if told to stop meanwhile.
     */
    private boolean awaitDue(long stamp) {
        for (long left = stamp - System.nanoTime(); left > 0 && running; left = stamp - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        return running;
    }

    /**
     * Stops the producers; fails if one is still sending 30 s later (a send that never returns), since it would go on
     * sending into the next cell.
     */
    @Override
    public void close() throws InterruptedException {
        running = false;
        threads.forEach(LockSupport::unpark); // one waiting for its next due time at a low rate
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " still sending 30 s after it was told to stop");
            }
        }
    }
}
