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
 * @param owedPercent    of the deliveries the messages sent in the window owed, the percentage still owed a second
 *                       after it closed; their latency counts in p50 and p99 as longer than every target. Null in a
 *                       run from before the lab followed them (its latency left out what was waiting at the end)
 */
public record RateStep(int offered, int repetitions, Range delivered, Range sent, Range p50Ms, Range p99Ms,
                       Range serverCpuUs, Range writtenBytes, Range clientCpuUs, Range owedPercent) {

    public RateStep(int offered, int repetitions, Range delivered, Range sent, Range p50Ms, Range p99Ms,
                    Range serverCpuUs, Range writtenBytes, Range clientCpuUs) {
        this(offered, repetitions, delivered, sent, p50Ms, p99Ms, serverCpuUs, writtenBytes, clientCpuUs, null);
    }

    /**
     * Whether both sides reached the offered rate (medians over the repetitions), latency was measured, and the
     * backlog did not run away: at most 1 % of the window's deliveries were still owed a second after it closed.
     * Without that check a system falling behind passes on the 95 %, its latency measured only on what it delivered.
     */
    public boolean keptUp() {
        return sent.median() >= AnswerPlan.KEPT_UP * offered && delivered.median() >= AnswerPlan.KEPT_UP * offered
                && p99Ms != null && (owedPercent == null || owedPercent.median() <= AnswerPlan.OWED_PERCENT);
    }

    /** Whether the rate was kept up with a p99 at or under {@code targetMs}. */
    public boolean meets(int targetMs) {
        return keptUp() && p99Ms.median() <= targetMs;
    }
}
