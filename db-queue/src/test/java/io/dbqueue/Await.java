package io.dbqueue;

import java.time.Duration;

/** Waits for a condition with a deadline, polling; tests use it instead of fixed sleeps. */
public final class Await {

    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    public static void until(Duration timeout, String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            Thread.onSpinWait();
            Thread.sleep(5);
        }
    }
}
