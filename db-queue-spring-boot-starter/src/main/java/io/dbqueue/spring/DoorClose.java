package io.dbqueue.spring;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Closes the door (or every shard's) as the context closes, in the phase after the consumers', on Spring's own
 * thread: the door waits for what its workers and members still hold, and the DataSource closes only after. A stop
 * that is not a close (the context's {@code stop()}, {@code pause()}, a checkpoint) leaves the door open, so that the
 * consumers, stopped in their phase, start again on it with the context.
 */
final class DoorClose extends DbQueueLifecycle
        implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

    private final Runnable close;
    private ApplicationContext context;
    private volatile boolean contextClosing; // the context publishes its close before it stops its lifecycles

    DoorClose(Runnable close) {
        super(true, DbQueueAutoConfiguration.PHASE - 1);
        this.close = close;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() == context) { // a child context's close reaches its parent's listeners too
            contextClosing = true;
        }
    }

    @Override
    protected void doStart() {
    }

    @Override
    protected void doStop() {
        if (contextClosing) {
            close.run();
        }
    }

    @Override
    public void stop(Runnable callback) {
        stop();
        callback.run();
    }
}
