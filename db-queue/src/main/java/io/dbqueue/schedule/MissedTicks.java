package io.dbqueue.schedule;

/**
 * What a schedule does with the ticks that fell while no process ran it (all were down, or it was
 * paused): they are found when a process next looks, and their tasks enqueued then.
 */
public enum MissedTicks {
    /** One task for all the missed ticks, then the next tick after now: a report that only needs to run again. */
    RUN_ONCE,
    /** A task for every missed tick, in order: work that must happen once per period. */
    RUN_ALL
}
