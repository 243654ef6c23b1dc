package io.dbqueue.spring;

import org.springframework.context.SmartLifecycle;

/**
 * The starter's consumers (queue workers, topic listeners): they start and stop in {@link DbQueueAutoConfiguration#PHASE},
 * with the context unless {@code dbq.auto-startup=false}. A start that fails stops what it had started.
 */
public abstract class DbQueueLifecycle implements SmartLifecycle {

    private final boolean autoStartup;
    private volatile boolean running;

    protected DbQueueLifecycle(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    /** Checks every consumer, then starts them all. */
    protected abstract void startConsumers();

    /** Stops what {@link #startConsumers} started, gracefully within {@code dbq.shutdown-timeout}. */
    protected abstract void stopConsumers();

    @Override
    public final synchronized void start() {
        if (running) {
            return;
        }
        try {
            startConsumers();
        } catch (RuntimeException e) {
            stopConsumers();
            throw e;
        }
        running = true;
    }

    @Override
    public final synchronized void stop() {
        running = false;
        stopConsumers();
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public final boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public final int getPhase() {
        return DbQueueAutoConfiguration.PHASE;
    }
}
