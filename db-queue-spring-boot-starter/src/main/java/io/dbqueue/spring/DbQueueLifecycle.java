package io.dbqueue.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** A lifecycle of the starter's (its consumers', its door's close); a start that fails stops what it started. */
public abstract class DbQueueLifecycle implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(DbQueueLifecycle.class);

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

    /**
     * Stops on a thread of its own and then tells Spring, so that the starter's lifecycles of one phase (the queues'
     * workers, the topics' listeners) stop together, each within {@code dbq.shutdown-timeout}, rather than one after
     * the other. Spring waits for a phase up to {@code spring.lifecycle.timeout-per-shutdown-phase}; the door's close,
     * a phase later, stops on Spring's thread ({@link DoorClose}) and so waits for whatever is still stopping.
     */
    @Override
    public void stop(Runnable callback) {
        new Thread(() -> {
            try {
                stop();
            } catch (RuntimeException e) { // as Spring logs a failed synchronous stop
                LOG.warn("Failed to stop {}", getClass().getName(), e);
            } finally {
                callback.run();
            }
        }, "dbq-stop-" + getClass().getSimpleName()).start();
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
