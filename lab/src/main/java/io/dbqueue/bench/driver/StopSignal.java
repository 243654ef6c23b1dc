package io.dbqueue.bench.driver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Set once, by Ctrl-C or a failure: the running repetition ends early and nothing new starts. */
public final class StopSignal {

    private final CountDownLatch stopped = new CountDownLatch(1);

    public void stop() {
        stopped.countDown();
    }

    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Waits up to {@code nanos}; returns true when stopped meanwhile. */
    public boolean await(long nanos) {
        if (nanos <= 0) {
            return isStopped();
        }
        try {
            return stopped.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}
