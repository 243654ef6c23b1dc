package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.DaemonThreads;
import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Merges single enqueues from many threads into batches, as a Kafka producer's {@code linger.ms}
 * and {@code batch.size} do: many threads each enqueueing one task then share one statement and one
 * commit per batch instead of paying one each. A batch is written in one statement when it holds
 * {@code maxBatch} tasks (by the thread that filled it), {@code linger} after its first task (by the
 * linger thread, one batch at a time), or when the producer closes. With a linger of zero a batch is
 * written at once when none is being written, and gathers while one is: batches grow with the load
 * and no caller waits for a timer (measured in docs/performance.md: the best setting on this
 * machine, 5 times the single enqueues' rate from 32 threads, where 5 ms barely matched it). Each caller is answered only once its task's batch
 * has committed, and an error reaches every caller of the failed batch: nothing is acknowledged that
 * is not stored. A batch commits on a pooled connection of its own, never in a caller's
 * transaction, since it holds other callers' tasks (a {@link QueueProducer} joins one). Thread-safe.
 */
public final class CoalescingProducer implements AutoCloseable {

    /**
     * How a coalescing producer batches: a batch waits up to {@code linger} after its first task (0:
     * written at once when none is being written), and holds at most {@code maxBatch} tasks.
     */
    public record Settings(Duration linger, int maxBatch) {

        public Settings {
            Checks.notNegative("linger", linger);
            Checks.between("maxBatch", maxBatch, 1, QueueProducer.MAX_BATCH_SIZE);
        }
    }

    private record Pending(String payload, CompletableFuture<Long> id) {
    }

    private static final long CLOSE_TIMEOUT_SECONDS = 30;

    private final QueueProducer producer;
    private final Duration linger;
    private final int maxBatch;
    private final ScheduledExecutorService lingerTimer;
    private List<Pending> buffer; // guarded by this
    private ScheduledFuture<?> lingerFlush; // guarded by this
    private boolean closed; // guarded by this

    public CoalescingProducer(DataSource dataSource, QueueLocation location, Duration linger, int maxBatch) {
        this(dataSource, location, QueueListener.NONE, new Settings(linger, maxBatch));
    }

    /** {@code listener} hears of each batch enqueued, as a {@link QueueProducer}'s does. */
    public CoalescingProducer(DataSource dataSource, QueueLocation location, QueueListener listener,
                              Settings settings) {
        this(new QueueProducer(dataSource, location, listener, Transactions.JDBC), settings);
    }

    /**
     * Writes its batches with {@code producer}, which must commit on its own connection (built with
     * {@link Transactions#JDBC}): a batch holds many callers' tasks and never joins one caller's transaction.
     */
    public CoalescingProducer(QueueProducer producer, Settings settings) {
        this.producer = producer;
        this.linger = settings.linger();
        this.maxBatch = settings.maxBatch();
        this.buffer = new ArrayList<>(maxBatch);
        this.lingerTimer = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("dbq-linger-" + producer.location().table().name()));
    }

    public QueueLocation location() {
        return producer.location();
    }

    /**
     * Enqueues one task, due now, and returns its id once its batch has committed.
     *
     * @throws CommitOutcomeUnknownException when the thread is interrupted while it waits: the task is in a batch
     *                                       that may still be stored
     */
    public long enqueue(String payload) {
        CompletableFuture<Long> id = enqueueAsync(payload);
        try {
            return id.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitOutcomeUnknownException("interrupted while waiting for the batch of a task enqueued into "
                    + producer.location() + "; it may still be stored", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new QueueException(e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Enqueues one task, due now; the future completes with its id once its batch has committed, on
     * the thread that wrote the batch: callbacks that block there hold up the batches after it.
     */
    public CompletableFuture<Long> enqueueAsync(String payload) {
        Pending pending = new Pending(QueueProducer.checkedPayload(payload), new CompletableFuture<>());
        List<Pending> full = null;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the coalescing producer of " + producer.location() + " is closed");
            }
            buffer.add(pending);
            if (buffer.size() >= maxBatch) {
                full = takeBuffer();
            } else if (buffer.size() == 1) {
                List<Pending> lingering = buffer;
                lingerFlush = lingerTimer.schedule(() -> flushIfStill(lingering), linger.toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        if (full != null) {
            write(full);
        }
        return pending.id();
    }

    /** Writes what is buffered, refuses new tasks and stops the linger thread. */
    @Override
    public void close() {
        List<Pending> tail;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            tail = takeBuffer();
        }
        write(tail);
        lingerTimer.shutdown();
        try { // a batch the linger thread is writing still answers its callers before the pool may close
            if (!lingerTimer.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the coalescing producer of " + producer.location() + " did not finish"
                        + " writing its last batch within " + CLOSE_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void flushIfStill(List<Pending> lingering) {
        List<Pending> batch;
        synchronized (this) {
            // The buffer may have filled and been written meanwhile; a newer buffer has its own timer.
            if (buffer != lingering) {
                return;
            }
            batch = takeBuffer();
        }
        write(batch);
    }

    private List<Pending> takeBuffer() {
        List<Pending> taken = buffer;
        buffer = new ArrayList<>(maxBatch);
        if (lingerFlush != null) {
            lingerFlush.cancel(false);
            lingerFlush = null;
        }
        return taken;
    }

    private void write(List<Pending> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Long> ids;
        try {
            ids = producer.enqueueAll(batch.stream().map(Pending::payload).toList());
        } catch (RuntimeException e) {
            batch.forEach(p -> p.id().completeExceptionally(e));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).id().complete(ids.get(i));
        }
    }
}
