package io.dbqueue.queue;

import io.dbqueue.common.Checks;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts, in this process, the tasks each queue finished and the failures it had, per minute over the last
 * {@link #MINUTES} minutes: a listener to give the {@code DbQueue} builder (the starter does), read by operators as
 * recent throughput. Memory is a small ring of per-minute buckets per queue.
 */
public final class QueueActivity implements QueueListener {

    /** How many minutes back {@link #recent} can look. */
    public static final int MINUTES = 15;

    /**
     * @param minutes      the minutes counted: the current one and those before it
     * @param finished     tasks completed
     * @param failed       failed attempts (retried or dead-lettered)
     * @param deadLettered tasks moved to the dead letters
     */
    public record Recent(int minutes, long finished, long failed, long deadLettered) {
    }

    private final Clock clock;
    private final Map<QueueLocation, Ring> rings = new ConcurrentHashMap<>();

    public QueueActivity() {
        this(Clock.systemUTC());
    }

    public QueueActivity(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        ring(queue).add(minute(), tasks.size(), 0, 0);
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        ring(queue).add(minute(), 0, 1, deadLettered ? 1 : 0);
    }

    /** What {@code queue} did in this process over the last {@code minutes} minutes, the current one included. */
    public Recent recent(QueueLocation queue, int minutes) {
        Checks.between("minutes", minutes, 1, MINUTES);
        Ring ring = rings.get(queue);
        return ring == null ? new Recent(minutes, 0, 0, 0) : ring.sum(minute(), minutes);
    }

    private Ring ring(QueueLocation queue) {
        return rings.computeIfAbsent(queue, q -> new Ring());
    }

    private long minute() {
        return clock.millis() / 60_000;
    }

    /** One bucket per minute, reused when its minute has passed out of the window. */
    private static final class Ring {

        private final long[] minuteOf = new long[MINUTES];
        private final long[][] counts = new long[MINUTES][3];

        Ring() {
            Arrays.fill(minuteOf, -1);
        }

        synchronized void add(long minute, long finished, long failed, long deadLettered) {
            int i = (int) (minute % MINUTES);
            if (minuteOf[i] != minute) {
                minuteOf[i] = minute;
                counts[i] = new long[3];
            }
            counts[i][0] += finished;
            counts[i][1] += failed;
            counts[i][2] += deadLettered;
        }

        synchronized Recent sum(long now, int minutes) {
            long[] total = new long[3];
            for (int i = 0; i < MINUTES; i++) {
                if (minuteOf[i] > now - minutes && minuteOf[i] <= now) {
                    for (int k = 0; k < 3; k++) {
                        total[k] += counts[i][k];
                    }
                }
            }
            return new Recent(minutes, total[0], total[1], total[2]);
        }
    }
}
