package io.dbqueue.bench.driver;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Producers and consumers running against the queue; closing stops the producers first, then the
 * consumers. {@code errors} holds the first error a producer or consumer thread died of. The
 * producers are {@link Producers} threads, or another process's (pgbench).
 */
public record Load(AutoCloseable producers, AutoCloseable consumers, AtomicReference<Throwable> errors) implements AutoCloseable {

    public Throwable failure() {
        return errors.get();
    }

    @Override
    public void close() throws Exception {
        try {
            producers.close();
        } finally {
            consumers.close(); // also when a producer would not stop
        }
    }
}
