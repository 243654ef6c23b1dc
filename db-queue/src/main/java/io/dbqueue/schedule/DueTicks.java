package io.dbqueue.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ticks of a schedule to enqueue now, and its next due tick after them.
 *
 * @param ticks   the ticks whose tasks to enqueue, oldest first; empty when nothing is due
 * @param nextDue the schedule's next due tick once those are enqueued
 */
record DueTicks(List<Instant> ticks, Instant nextDue) {

    /**
     * The ticks due at {@code now} of a schedule whose next tick is {@code due}: with
     * {@link MissedTicks#RUN_ONCE} one (the oldest, standing for all that are due) and the next tick
     * after now; with {@link MissedTicks#RUN_ALL} each due tick, at most {@code max} of them, and the
     * tick after the last one (which may be due too: then the rest follow in another round).
     */
    static DueTicks at(Instant now, Instant due, Trigger trigger, MissedTicks missed, int max) {
        if (due.isAfter(now)) {
            return new DueTicks(List.of(), due);
        }
        if (missed == MissedTicks.RUN_ONCE) {
            return new DueTicks(List.of(due), trigger.next(now));
        }
        List<Instant> ticks = new ArrayList<>();
        Instant tick = due;
        while (!tick.isAfter(now) && ticks.size() < max) {
            ticks.add(tick);
            tick = trigger.next(tick);
        }
        return new DueTicks(List.copyOf(ticks), tick);
    }
}
