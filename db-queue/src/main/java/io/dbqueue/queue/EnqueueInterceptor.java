package io.dbqueue.queue;

import java.sql.SQLException;
import java.util.Map;

/**
 * Runs around every enqueue call of the producers it is given to ({@link QueueProducer#intercepted}, or every
 * producer of a door: {@code DbQueue.Builder.enqueueInterceptor}), e.g. to start a tracing span and put its
 * context into the tasks' headers. A producer without one runs its enqueues exactly as before headers existed.
 * Keyed enqueues ({@code enqueueOnce...}) and prioritized ones are intercepted too: their new tasks, and a waiting
 * task a keyed repeat replaces, carry its headers. The coalescing producer's merged batches (many callers in one
 * statement) are not.
 */
public interface EnqueueInterceptor {

    /**
     * Runs {@code enqueue} and returns its answer. What it puts into {@code headers} before it proceeds is given
     * to every task of the call, over a task's own header of the same name; on a table without the
     * {@code headers} column ({@link Schema#headersMigration}) it is dropped, with a warning once per producer.
     * What it throws after {@code proceed} returned, for an enqueue that commits on its own, is logged, and the
     * enqueue's answer returned: its tasks are stored. In the caller's transaction it is thrown, as any failure there.
     *
     * @param tasks how many tasks the call enqueues
     */
    <T> T around(QueueLocation queue, int tasks, Map<String, String> headers, Enqueue<T> enqueue) throws SQLException;

    /** The enqueue an interceptor runs. */
    interface Enqueue<T> {
        T proceed() throws SQLException;
    }
}
