package io.dbqueue.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where an id-ordered claim starts its index scan. Deleted tasks leave dead index entries at the
 * head of the (queue_name, id) index until vacuum removes them; a claim from the start walks all of
 * them, and with a deep backlog, or a long transaction holding vacuum back, that is hundreds of
 * thousands of entries per claim and throughput decays. So while claims come back full, the next
 * one starts just above the last id of the last full batch: nothing up to it was due and unclaimed
 * then, other than rows that other claimers had locked (theirs) and rows not yet committed. Starting
 * at the batch's first id instead would walk the batch's own tasks again on every claim, and at least
 * once they are still there (leased), each a heap visit to find that it is not due.
 *
 * <p>What can appear below the floor later (a retry or an expired lease coming due, a producer's
 * transaction committing after later ids were claimed) is found by a claim from the start: after
 * every partial or empty claim, and at least every {@link #RESCAN_INTERVAL} (one second) while
 * claims stay full.
 * So such a task waits at most that much longer, and only while the queue has a backlog.
 * Shared by the threads of one {@link QueueWorkers}; races between them only cost a scan.
 */
final class ClaimCursor {

    static final Duration RESCAN_INTERVAL = Duration.ofSeconds(1);
    /** A floor below every id: the scan starts at the head of the index. */
    static final long FROM_START = Long.MIN_VALUE;

    private final long rescanNanos;
    private final AtomicLong floor = new AtomicLong(FROM_START);
    private volatile long rescanAt = System.nanoTime();

    ClaimCursor(Duration rescanInterval) {
        this.rescanNanos = rescanInterval.toNanos();
    }

    /** The id the next claim starts at. */
    long floor() {
        return System.nanoTime() - rescanAt >= 0 ? FROM_START : floor.get();
    }

    /** Records a claim that started at {@code usedFloor}; {@code tasks} are in id order. */
    void claimed(long usedFloor, List<Task> tasks, int limit) {
        if (tasks.size() < limit) {
            floor.set(FROM_START);
            rescanAt = System.nanoTime();
            return;
        }
        if (usedFloor == FROM_START) {
            rescanAt = System.nanoTime() + rescanNanos;
        }
        floor.accumulateAndGet(tasks.get(tasks.size() - 1).id() + 1, Math::max);
    }
}
