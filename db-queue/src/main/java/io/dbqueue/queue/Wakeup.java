package io.dbqueue.queue;

/** How idle workers of a queue learn that it has new tasks. Workers always poll as well; the modes differ in how long they wait. */
public enum Wakeup {

    /**
     * Poll only: an idle worker looks again after {@link PollSettings#noTaskTimeout()}, or when a retry
     * these workers wrote comes due, if that is sooner.
     */
    POLL,

    /**
     * LISTEN/NOTIFY: producers with a {@link QueueNotifier} send a coalesced notification with or
     * after each commit and {@link QueueWakeups} wakes one idle worker per notification; a worker
     * whose claim comes back full wakes another before it handles its batch. The no-task timeout is
     * only the fallback for a lost notification: an idle worker also wakes when a retry or a delayed
     * task comes due (see {@link QueueWorkers}).
     */
    NOTIFY,

    /**
     * NOTIFY while the workers keep up; tight polling (every {@link PollSettings#betweenTaskTimeout()})
     * while nearly every claim comes back full, when notifications would only wake busy workers.
     * While it polls, producers send no notifications on its table's channel, unless workers of
     * another queue of that table want them. {@link AdaptiveWakeup} says when it switches.
     */
    ADAPTIVE
}
