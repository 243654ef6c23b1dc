package io.dbqueue.schedule;

import java.time.Instant;

/**
 * A schedule as its row stands: its definition (the last process to define it wrote it), when it is
 * next due and whether it is paused.
 *
 * @param name       the schedule's name
 * @param queueTable the table of the queue its tasks go to
 * @param queueName  that queue's name
 * @param payload    each task's payload
 * @param trigger    when its ticks fall
 * @param missed     what happens to ticks missed while nothing ran it
 * @param nextDue    its next tick not yet enqueued; in the past while a tick waits to be taken
 * @param paused     whether it is paused: no tick is taken until it is resumed
 */
public record ScheduleState(String name, String queueTable, String queueName, String payload, Trigger trigger,
                            MissedTicks missed, Instant nextDue, boolean paused) {
}
