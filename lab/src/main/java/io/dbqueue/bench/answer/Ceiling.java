package io.dbqueue.bench.answer;

import java.util.OptionalDouble;

/**
 * The ceiling of one shape: PostgreSQL's own client, pgbench, running the queue's at-least-once
 * statements on the same server, layout, batch and threads, as fast as they go (no offered rate),
 * in the same run as the sweeps. What the library delivers is weighed against it.
 *
 * @param step its repetitions' figures, offered 0 (nothing is offered: it runs flat out); no latency, as
 *             pgbench's payloads carry no time. Null when it did not run
 * @param note null, or why it did not run (pgbench is not installed), failed or was interrupted
 */
public record Ceiling(AnswerShape shape, RateStep step, String note) {

    public Ceiling {
        if ((step == null) == (note == null)) {
            throw new IllegalArgumentException("a ceiling has either a step (measured) or a note (why not), had "
                    + (step == null ? "neither" : "both"));
        }
    }

    /** The system whose statements the ceiling runs. */
    public static final AnswerSystem OF = AnswerSystem.QUEUE_AT_LEAST_ONCE;

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
