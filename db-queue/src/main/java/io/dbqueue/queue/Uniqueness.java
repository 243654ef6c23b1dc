package io.dbqueue.queue;

import java.util.Objects;

/**
 * How an idempotency key keeps its task unique ({@link QueueProducer#enqueueAllOnce(java.util.List, java.util.List, java.util.List,
 * java.time.Duration, Uniqueness)}): for how long the key answers with its task ({@link Scope}), and what a
 * repeat of the key does to a task that is still waiting ({@link OnRepeat}).
 *
 * <p>A task is <em>waiting</em> while it is due and unclaimed, or due later and never claimed (as
 * {@link QueueAdmin#cancel} sees it); it is <em>running</em> from its claim (a lease, or an exactly-once
 * batch's row lock) until it is finished or dead-lettered, and while it waits out a retry. A task
 * claimed at most once is gone at its claim.
 *
 * @param scope    while the key answers with its task
 * @param onRepeat what a repeat does to the key's waiting task
 */
public record Uniqueness(Scope scope, OnRepeat onRepeat) {

    /** While a key answers with its task; once it is free, a repeat enqueues a new task under the key. */
    public enum Scope {
        /** For the keys' retention ({@code idempotencyKeyRetention}, 24 h), counted from the task's enqueue, and
         *  as long as the task is in the queue. */
        WINDOW,
        /** While the task waits or runs: free once it is finished, dead-lettered or cancelled. */
        WHILE_WAITING_OR_RUNNING,
        /** While the task waits: free once it is claimed. */
        WHILE_WAITING
    }

    /** What a repeat of the key does to its task when the key is not free. */
    public enum OnRepeat {
        /** Nothing: the repeat answers with the task as it is. */
        KEEP_FIRST,
        /** If the task is waiting, its payload and due time become the repeat's (debounce); else as KEEP_FIRST. */
        REPLACE
    }

    /** The key answers with its first task for the keys' retention: {@link QueueProducer#enqueueOnce}'s default. */
    public static final Uniqueness WINDOW = new Uniqueness(Scope.WINDOW, OnRepeat.KEEP_FIRST);
    /** One task per key at a time, waiting or running; a repeat answers with it. */
    public static final Uniqueness WHILE_WAITING_OR_RUNNING =
            new Uniqueness(Scope.WHILE_WAITING_OR_RUNNING, OnRepeat.KEEP_FIRST);
    /** One waiting task per key; a repeat answers with it, and one after its claim enqueues another. */
    public static final Uniqueness WHILE_WAITING = new Uniqueness(Scope.WHILE_WAITING, OnRepeat.KEEP_FIRST);
    /** One waiting task per key, a repeat replacing its payload and due time; one after its claim enqueues another. */
    public static final Uniqueness DEBOUNCE = WHILE_WAITING.replacing();

    public Uniqueness {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(onRepeat, "onRepeat");
    }

    /** This scope, a repeat replacing the waiting task's payload and due time. */
    public Uniqueness replacing() {
        return new Uniqueness(scope, OnRepeat.REPLACE);
    }

    /** Whether a key whose task is running is free. */
    boolean freesRunning() {
        return scope == Scope.WHILE_WAITING;
    }

    /** Whether a key whose task has left the queue (finished, dead-lettered, cancelled) is free. */
    boolean freesGone() {
        return scope != Scope.WINDOW;
    }

    boolean replaces() {
        return onRepeat == OnRepeat.REPLACE;
    }
}
