package io.dbqueue.queue;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a claim in sequence order (by id, or by priority and then id) starts its index scan. Deleted
 * tasks leave dead index entries at the head of the claim order until vacuum removes them, and leased
 * tasks stay in the index, each a heap visit to find that it is not due; a claim from the start walks
 * all of them, and with a deep backlog, or a long transaction holding vacuum back, that is hundreds of
 * thousands of entries per claim and throughput decays. So while claims come back full, the next one
 * starts just after the last task of the last full batch: nothing before it was due and unclaimed then,
 * other than rows that other claimers had locked (theirs) and rows not yet committed. Starting at the
 * batch's first task instead would walk the batch's own tasks again on every claim, and at least once
 * they are still there (leased), each a heap visit to find that it is not due.
 *
 * <p>By priority each level has its own head, and its own floor ({@link Floor}): a level that a full
 * claim read to its end (it went on to a lower level) had nothing due and unclaimed up to the batch's
 * highest id, and the level it ended in nothing up to its last task. A task enqueued later has a higher
 * id than any of them, so it is claimed in its turn; levels without a floor are read from their heads.
 *
 * <p>What can appear below a floor later (a retry or an expired lease coming due, a task aged into a
 * higher level with its older id, a producer's transaction committing after later ids were claimed) is
 * found by a claim from the start: after every partial or empty claim, and at least every
 * {@link #RESCAN_INTERVAL} (one second) while claims stay full. So such a task waits at most that much
 * longer, and only while the queue has a backlog. Shared by the threads of one {@link QueueWorkers};
 * races between them only cost a scan.
 */
final class ClaimCursor {

    static final Duration RESCAN_INTERVAL = Duration.ofSeconds(1);
    /** The most levels a floor keeps, the highest (a claim statement per {@link Shape}, up to two scans per level). */
    static final int MAX_LEVELS = 8;

    /**
     * A claim's starting point: per priority level (in id order every task has priority 0), highest first, the
     * lowest id the claim reads there. A level without one is read from its head.
     */
    record Floor(NavigableMap<Integer, Long> ids) {

        /** No level has a floor: the scan starts at the head of the claim order. */
        static final Floor FROM_START = new Floor(new TreeMap<>());

        Floor {
            TreeMap<Integer, Long> highestFirst = new TreeMap<>(Collections.reverseOrder());
            highestFirst.putAll(ids);
            while (highestFirst.size() > MAX_LEVELS) {
                highestFirst.pollLastEntry(); // a level read from its head instead: a longer scan, never a missed task
            }
            ids = Collections.unmodifiableNavigableMap(highestFirst);
        }

        /** The floor of {@code level}: the lowest id a claim reads there. */
        long id(int level) {
            return ids.getOrDefault(level, Long.MIN_VALUE);
        }

        /** The levels with a floor, highest first. */
        List<Integer> levels() {
            return List.copyOf(ids.keySet());
        }

        /** The shape of a claim by priority from this floor. */
        Shape shape() {
            List<Integer> levels = levels();
            if (levels.isEmpty()) {
                return Shape.FROM_START;
            }
            int open = levels.get(0) < QueueProducer.MAX_PRIORITY ? 1 : 0;
            for (int i = 1; i < levels.size(); i++) {
                open |= levels.get(i - 1) - levels.get(i) > 1 ? 1 << i : 0;
            }
            open |= levels.get(levels.size() - 1) > QueueProducer.MIN_PRIORITY ? 1 << levels.size() : 0;
            return new Shape(levels.size(), open);
        }

        /**
         * This floor raised by a full {@code batch} (in claim order) that a claim from it, or from an earlier floor,
         * took: the levels above its last task's to the batch's highest id, its last task's level to that task.
         */
        Floor after(List<Task> batch) {
            Task last = batch.get(batch.size() - 1);
            TreeMap<Integer, Long> raised = new TreeMap<>(ids); // highest first, as ids
            long highest = last.id();
            for (Task task : batch) { // in id order (every task at level 0) only the highest id is looked for
                highest = Math.max(highest, task.id());
                if (task.priority() != last.priority()) {
                    raised.putIfAbsent(task.priority(), Long.MIN_VALUE);
                }
            }
            long aboveLast = highest + 1;
            raised.headMap(last.priority(), false).replaceAll((level, id) -> Math.max(id, aboveLast));
            raised.merge(last.priority(), last.id() + 1, Math::max);
            return new Floor(raised);
        }
    }

    /**
     * What the text of a claim by priority depends on: the count of levels with a floor, and which of the ranges
     * around them can hold a priority (bit 0: above the highest; bit i: between the i-th and the one above;
     * bit {@code levels}: below the lowest). Priorities are integers, so the range between two adjacent levels holds
     * none; reading it would still be an index probe, and it lands where the upper level's inserts land.
     */
    record Shape(int levels, int openRanges) {

        /** No level has a floor: the claim reads the claim order from its head. */
        static final Shape FROM_START = new Shape(0, 0);

        /** Whether the claim reads {@code range} (see {@link Shape}). */
        boolean reads(int range) {
            return (openRanges & (1 << range)) != 0;
        }
    }

    private final long rescanNanos;
    private final AtomicReference<Floor> floor = new AtomicReference<>(Floor.FROM_START);
    private volatile long rescanAt = System.nanoTime();

    ClaimCursor(Duration rescanInterval) {
        this.rescanNanos = rescanInterval.toNanos();
    }

    /** Where the next claim starts. */
    Floor floor() {
        return System.nanoTime() - rescanAt >= 0 ? Floor.FROM_START : floor.get();
    }

    /** Records a claim that started at {@code usedFloor}; {@code tasks} are in claim order. */
    void claimed(Floor usedFloor, List<Task> tasks, int limit) {
        if (tasks.size() < limit) {
            floor.set(Floor.FROM_START);
            rescanAt = System.nanoTime();
            return;
        }
        if (usedFloor == Floor.FROM_START) {
            rescanAt = System.nanoTime() + rescanNanos;
        }
        floor.updateAndGet(current -> current.after(tasks));
    }
}
