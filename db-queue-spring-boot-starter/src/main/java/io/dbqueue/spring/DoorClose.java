package io.dbqueue.spring;

/**
 * Closes the door (or every shard's) as the context stops, in the phase after the consumers', on Spring's own thread:
 * the door waits for what its workers and members still hold, and the DataSource closes only after.
 */
final class DoorClose extends DbQueueLifecycle {

    private final Runnable close;

    DoorClose(Runnable close) {
        super(true, DbQueueAutoConfiguration.PHASE - 1);
        this.close = close;
    }

    @Override
    protected void doStart() {
    }

    @Override
    protected void doStop() {
        close.run();
    }

    @Override
    public void stop(Runnable callback) {
        stop();
        callback.run();
    }
}
