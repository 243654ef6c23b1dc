package io.dbqueue.bench.cli;

import io.dbqueue.bench.driver.StopSignal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C during a measuring command: the hook stops the run and waits (up to a minute) until the
 * command has written what it measured, so partial results are kept. Closing removes the hook.
 */
final class CtrlC implements AutoCloseable {

    private static final long WRITE_TIMEOUT_SECONDS = 60;

    private final StopSignal stop = new StopSignal();
    private final CountDownLatch written = new CountDownLatch(1);
    private final Thread hook = new Thread(() -> {
        stop.stop();
        awaitQuietly(written);
    }, "bench-ctrl-c");

    private CtrlC() {
    }

    static CtrlC install() {
        CtrlC ctrlC = new CtrlC();
        Runtime.getRuntime().addShutdownHook(ctrlC.hook);
        return ctrlC;
    }

    StopSignal stop() {
        return stop;
    }

    @Override
    public void close() {
        written.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down (Ctrl-C): the hook is running and must not be removed
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
