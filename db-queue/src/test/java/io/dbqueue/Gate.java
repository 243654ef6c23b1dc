package io.dbqueue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gate that handlers and listeners wait at, on the workers' threads, until the test opens it. A
 * wait that runs out is counted, not thrown: thrown there, it would fail a batch rather than the
 * test. The test asserts {@link #assertNoWaitTimedOut} on its own thread once the waits are over.
 */
public final class Gate {

    private static final long WAIT_SECONDS = 30;

    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicInteger timedOut = new AtomicInteger();

    /** Lets every waiter through, now and later. */
    public void open() {
        open.countDown();
    }

    /** Waits until the gate is open, at most {@value #WAIT_SECONDS} s; a wait that runs out is counted. */
    public void pass() throws InterruptedException {
        if (!open.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            timedOut.incrementAndGet();
        }
    }

    /** Every wait so far ended because the gate opened. */
    public void assertNoWaitTimedOut() {
        assertEquals(0, timedOut.get(), "waits at the gate that ran out before the test opened it");
    }
}
