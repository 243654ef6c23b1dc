package io.dbqueue.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
    /** The most levels a floor keeps, the highest (a claim reads up to two ranges per level, {@link Floor#ranges}). */
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

        /**
         * The ranges of priorities a claim by priority from this floor reads, in claim order (highest first), each from
         * its lowest id: every level with a floor from its floor, and the ranges around them that can hold a priority
         * (above the highest level, between two levels that are not adjacent, below the lowest) from their heads.
         * Without any floor, every priority from its head.
         */
        List<Range> ranges() {
            List<Range> ranges = new ArrayList<>();
            int uncovered = QueueProducer.MAX_PRIORITY; // the highest priority no range holds yet
            for (Map.Entry<Integer, Long> level : ids.entrySet()) {
                if (level.getKey() < uncovered) {
                    ranges.add(new Range(level.getKey() + 1, uncovered, Long.MIN_VALUE));
                }
                ranges.add(new Range(level.getKey(), level.getKey(), level.getValue()));
                uncovered = level.getKey() - 1;
            }
            if (uncovered >= QueueProducer.MIN_PRIORITY) {
                ranges.add(new Range(QueueProducer.MIN_PRIORITY, uncovered, Long.MIN_VALUE));
            }
            return ranges;
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

    /** Priorities from {@code lowest} to {@code highest}, read from {@code fromId} on ({@link Floor#ranges}). */
    record Range(int lowest, int highest, long fromId) {
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
