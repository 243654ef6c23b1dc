package io.dbqueue.spring;

import org.springframework.context.SmartLifecycle;

/** A lifecycle of the starter's (its consumers', its door's close); a start that fails stops what it started. */
public abstract class DbQueueLifecycle implements SmartLifecycle {

    private final boolean autoStartup;
    private final int phase;
    private volatile boolean running;

    protected DbQueueLifecycle(boolean autoStartup, int phase) {
        this.autoStartup = autoStartup;
        this.phase = phase;
    }

    protected abstract void doStart();

    protected abstract void doStop();

    @Override
    public final synchronized void start() {
        if (!running) {
            try {
                doStart();
            } catch (RuntimeException e) {
                doStop();
                throw e;
            }
            running = true;
        }
    }

    @Override
    public final synchronized void stop() {
        running = false;
        doStop();
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
        return phase;
    }
}
