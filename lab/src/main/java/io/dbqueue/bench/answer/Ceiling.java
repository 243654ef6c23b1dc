package io.dbqueue.bench.answer;

import io.dbqueue.bench.workload.DriverName;

import java.util.OptionalDouble;

/**
 * The ceiling of one shape: PostgreSQL's own client, pgbench, on the same server with the same batch and threads,
 * as fast as it goes (no offered rate), in the same run as the sweeps. What the queue delivers is weighed against it.
 *
 * @param driver what pgbench ran: {@link #DRIVER}, a minimal queue of its own; runs before it ran the queue's
 *               statements ({@link DriverName#PGBENCH}), which is what a missing driver means
 * @param step   its repetitions' figures, offered 0 (nothing is offered: it runs flat out); no latency, as
 *               pgbench's payloads carry no time. Null when it did not run
 * @param note   null, or why it did not run (pgbench is not installed), failed or was interrupted
 */
public record Ceiling(AnswerShape shape, DriverName driver, RateStep step, String note) {

    /** The system the ceiling is weighed against. */
    public static final AnswerSystem OF = AnswerSystem.QUEUE_AT_LEAST_ONCE;
    /** What a run measures the ceiling with: the minimal queue, all PostgreSQL needs to hand out messages. */
    public static final DriverName DRIVER = DriverName.PGBENCH_MINIMAL;

    public Ceiling {
        driver = driver == null ? DriverName.PGBENCH : driver;
        if (driver != DriverName.PGBENCH && driver != DriverName.PGBENCH_MINIMAL) {
            throw new IllegalArgumentException("a ceiling is run by pgbench or pgbench-minimal, not " + driver);
        }
        if ((step == null) == (note == null)) {
            throw new IllegalArgumentException("a ceiling has either a step (measured) or a note (why not), had "
                    + (step == null ? "neither" : "both"));
        }
    }

    /** A ceiling run by {@link #DRIVER}: measured ({@code step}) or not ({@code note}, and a null step). */
    public static Ceiling of(AnswerShape shape, RateStep step, String note) {
        return new Ceiling(shape, DRIVER, step, note);
    }

    public boolean measured() {
        return step != null;
    }

    /** Messages per second delivered, median over the repetitions. */
    public double delivered() {
        return step.delivered().median();
    }

    /**
     * The share, in percent, of the ceiling the sweep of {@link #OF} delivered at its most: empty when either was
     * not measured.
     */
    public OptionalDouble percentReached(Sweep queue) {
        if (!measured() || queue == null || !queue.measured() || delivered() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(100 * queue.saturation().orElseThrow() / delivered());
    }
}
