package io.dbqueue.bench.answer;

import io.dbqueue.bench.run.Range;

/**
 * One offered rate of a system's sweep, over its repetitions: each figure is the median of every
 * repetition's own figure, with min and max (never the figures of one chosen repetition).
 *
 * @param delivered      messages per second each consumer group received
 * @param sent           messages per second the producers had acknowledged
 * @param serverCpuUs    the server's CPU microseconds per message sent (PostgreSQL's processes, or the broker's);
 *                       null when not measured
 * @param writtenBytes   bytes the server wrote per message sent (PostgreSQL's WAL, the broker's disk writes);
 *                       null when not measured
 * @param clientCpuUs    the lab's own CPU microseconds per message sent (producers and consumers); null when not
 *                       measured
 */
public record RateStep(int offered, int repetitions, Range delivered, Range sent, Range p50Ms, Range p99Ms,
                       Range serverCpuUs, Range writtenBytes, Range clientCpuUs) {

    /** Whether both sides reached the offered rate (medians over the repetitions) and latency was measured. */
    public boolean keptUp() {
        return sent.median() >= AnswerPlan.KEPT_UP * offered && delivered.median() >= AnswerPlan.KEPT_UP * offered
                && p99Ms != null;
    }

    /** Whether the rate was kept up with a p99 at or under {@code targetMs}. */
    public boolean meets(int targetMs) {
        return keptUp() && p99Ms.median() <= targetMs;
    }
}
