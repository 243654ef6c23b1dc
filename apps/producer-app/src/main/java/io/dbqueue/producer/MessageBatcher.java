package io.dbqueue.producer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Groups payloads submitted on many threads into batches written with one statement each. A batch
 * is written when it holds {@code batchSize} payloads (by the thread that filled it) or when
 * {@code linger} has passed since its first payload (by the linger thread), and on {@link #close()}.
 * Each payload's future completes with its task id once its batch committed, or exceptionally
 * if the write failed: an answer is never given for a payload that is not stored.
 */
public final class MessageBatcher implements AutoCloseable {

    private record Pending(String payload, CompletableFuture<Long> id) {
    }

    private final Function<List<String>, List<Long>> writer;
    private final int batchSize;
    private final Duration linger;
    private final ScheduledExecutorService lingerTimer =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "producer-linger"));
    private List<Pending> buffer; // guarded by this
    private ScheduledFuture<?> lingerFlush; // guarded by this
    private boolean closed; // guarded by this

    /** {@code writer} stores a batch in one transaction and returns the ids in payload order. */
    public MessageBatcher(Function<List<String>, List<Long>> writer, int batchSize, Duration linger) {
        this.writer = writer;
        this.batchSize = batchSize;
        this.linger = linger;
        this.buffer = new ArrayList<>(batchSize);
    }

    public CompletableFuture<Long> submit(String payload) {
        Pending pending = new Pending(payload, new CompletableFuture<>());
        List<Pending> full = null;
        synchronized (this) {
            if (closed) {
                throw new ProducerClosedException();
            }
            buffer.add(pending);
            if (buffer.size() >= batchSize) {
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

    /** Writes what is buffered, refuses new payloads and stops the linger thread. */
    @Override
    public void close() {
        List<Pending> tail;
        synchronized (this) {
            closed = true;
            tail = takeBuffer();
        }
        write(tail);
        lingerTimer.shutdown();
        try {
            lingerTimer.awaitTermination(30, TimeUnit.SECONDS);
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
        buffer = new ArrayList<>(batchSize);
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
            ids = writer.apply(batch.stream().map(Pending::payload).toList());
        } catch (RuntimeException e) {
            batch.forEach(p -> p.id().completeExceptionally(e));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).id().complete(ids.get(i));
        }
    }
}
