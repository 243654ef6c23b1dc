package io.dbqueue;

import io.dbqueue.queue.QueueLocation;

import java.util.HashMap;
import java.util.Map;

/**
 * Where the enqueues of each queue of a {@link ShardedDbQueue} go: the shard its {@link Placement} picks, or the one a
 * move sent it to. It counts the enqueues in flight per queue and shard, so that a move's first step returns only
 * once none can still commit on the old shard: an enqueue that picked the shard before the move, and then waited for
 * a connection or in a slow insert, would otherwise commit after the drain was checked, where no consumer looks any
 * more. Its lock is held for map look-ups only, never across a database call, so that a move's other steps never
 * hold up enqueues.
 */
final class QueueRoutes {

    private record Route(QueueLocation queue, String shard) {
    }

    private final ShardSet shards;
    private final Placement placement;
    private final Map<QueueLocation, String> moved = new HashMap<>(); // placed by a move
    private final Map<QueueLocation, String> draining = new HashMap<>(); // the old shard of a move not yet released
    private final Map<Route, Integer> writing = new HashMap<>(); // enqueues in flight

    QueueRoutes(ShardSet shards, Placement placement) {
        this.shards = shards;
        this.placement = placement;
    }

    /** The shard that new enqueues of {@code queue} go to. */
    synchronized String shardOf(QueueLocation queue) {
        String target = moved.get(queue);
        return target != null ? target : placement.shardOfQueue(queue.queueName(), shards);
    }

    /** The shard an enqueue of {@code queue} goes to, counted in flight there until {@link #endWrite}. */
    synchronized String beginWrite(QueueLocation queue) {
        String shard = shardOf(queue);
        writing.merge(new Route(queue, shard), 1, Integer::sum);
        return shard;
    }

    synchronized void endWrite(QueueLocation queue, String shard) {
        writing.computeIfPresent(new Route(queue, shard), (route, n) -> n == 1 ? null : n - 1);
        notifyAll();
    }

    /**
     * Sends new enqueues of {@code queue} to shard {@code to}, then waits until no enqueue to the shard it was on is
     * in flight. Returns that shard, or null when the queue is on {@code to} already. Fails if a move of the queue
     * is not yet released.
     */
    synchronized String move(QueueLocation queue, String to) {
        if (draining.containsKey(queue)) {
            throw new IllegalStateException("move of " + queue + ": its move from shard " + draining.get(queue)
                    + " is not released yet (awaitDrained, then releaseQueue)");
        }
        String from = shardOf(queue);
        if (from.equals(to)) {
            return null;
        }
        moved.put(queue, to);
        draining.put(queue, from);
        Route before = new Route(queue, from);
        try {
            while (writing.containsKey(before)) {
                wait(); // releases the lock: the enqueues in flight end, and others go to the new shard
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("move of " + queue + " to shard " + to + " is made, but was interrupted"
                    + " while enqueues to shard " + from + " were in flight: some may commit there after awaitDrained"
                    + " looks", e);
        }
        return from;
    }

    /** How many enqueues of {@code queue} to {@code shard} are in flight: not committed yet, perhaps about to be. */
    synchronized int writing(QueueLocation queue, String shard) {
        return writing.getOrDefault(new Route(queue, shard), 0);
    }

    /** The shard {@code queue} is moving from, or null when it is not moving. */
    synchronized String draining(QueueLocation queue) {
        return draining.get(queue);
    }

    /**
     * Where consumers of {@code queue} start: the shard it is moving from while it drains, else its shard. One look
     * under the lock: read as two, a move between them sent consumers to the new shard while the old one held tasks.
     */
    synchronized String consumedShard(QueueLocation queue) {
        String from = draining.get(queue);
        return from != null ? from : shardOf(queue);
    }

    /** Ends the move of {@code queue}: its old shard is drained and its consumers have left it. */
    synchronized void released(QueueLocation queue) {
        draining.remove(queue);
    }
}
