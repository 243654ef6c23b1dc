package io.dbqueue.testapp;

import java.util.concurrent.atomic.AtomicLong;

/** The progress of the run in progress, shared by the load generator, the statistics receivers and the watchdog. */
final class ActiveRun {

    private final long id;
    private final long messageCount;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong processed = new AtomicLong();
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile boolean over;

    ActiveRun(long id, long messageCount) {
        this.id = id;
        this.messageCount = messageCount;
    }

    long id() {
        return id;
    }

    long messageCount() {
        return messageCount;
    }

    /**
     * Messages the producers accepted. A message can be processed, and reported, before its
     * producer's answer reaches test-app; a processed message was certainly accepted.
     */
    long sent() {
        return Math.max(sent.get(), processed.get());
    }

    long processed() {
        return processed.get();
    }

    void sent(int count) {
        sent.addAndGet(count);
        lastProgressNanos = System.nanoTime();
    }

    /** Returns whether every message of the run has now been processed. */
    boolean processed(int count) {
        lastProgressNanos = System.nanoTime();
        return processed.addAndGet(count) >= messageCount;
    }

    long nanosSinceProgress() {
        return System.nanoTime() - lastProgressNanos;
    }

    /** Completed or failed: the load generator stops sending. */
    boolean isOver() {
        return over;
    }

    void end() {
        over = true;
    }
}
