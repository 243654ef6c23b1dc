package io.dbqueue.stack.fault;

import java.util.List;
import java.util.Locale;

/**
 * What one fault scenario counted. Every message is sent with an idempotency key until it is
 * answered, so {@code acknowledged} is every message sent; {@code lost} are acknowledged messages
 * never processed and must be 0.
 *
 * @param sent                   messages in the requests sent (each counted once, however often it was sent again)
 * @param acknowledged           distinct ids answered with 2xx
 * @param unanswered             requests that got no 2xx at first (and were answered when sent again)
 * @param storedThoughUnanswered of those, requests the service had stored before failing to answer
 * @param processed              acknowledged messages reported processed by a consumer
 * @param duplicates             second and later reports of a processed message (at least once, after a crash)
 * @param duplicateBound         at least once: tasks leased and unfinished at the kills, the most that can
 *                               run twice; -1 where it does not apply
 * @param duplicateEffects       exactly once: messages whose effect was committed more than once; -1 otherwise
 * @param lost                   acknowledged and never processed (exactly once: with no effect committed)
 * @param faults                 faults injected
 * @param loadSeconds            how long the clients sent (longer than asked when faults took long to recover from)
 * @param recoverySeconds        the longest time from a fault until the system made progress again
 * @param drainSeconds           from the end of the load until every acknowledged message was processed
 * @param problems               why the scenario failed; empty when it passed
 */
public record FaultResult(String scenario, String mode, long sent, long acknowledged, long unanswered,
                          long storedThoughUnanswered, long processed, long duplicates, long duplicateBound,
                          long duplicateEffects, long lost, int faults, double loadSeconds, double recoverySeconds,
                          double drainSeconds,
                          List<String> problems) implements ScenarioOutcome {

    public FaultResult {
        problems = List.copyOf(problems);
    }

    public boolean passed() {
        return problems.isEmpty();
    }

    /** The one line a scenario ends with. */
    public String line() {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%s %s %s: %.0f s of load, sent %d, acknowledged %d (%d requests unanswered at first, %d of them stored), processed %d,"
                        + " duplicates %d", scenario, mode, passed() ? "PASS" : "FAIL", loadSeconds, sent, acknowledged, unanswered,
                storedThoughUnanswered, processed, duplicates));
        if (duplicateBound >= 0) {
            line.append(" (bound ").append(duplicateBound).append(')');
        }
        if (duplicateEffects >= 0) {
            line.append(", duplicate effects ").append(duplicateEffects);
        }
        line.append(String.format(Locale.ROOT, ", lost %d; %d faults, recovered within %.1f s, drained %.1f s after the load",
                lost, faults, recoverySeconds, drainSeconds));
        if (!passed()) {
            line.append(" -- ").append(String.join("; ", problems));
        }
        return line.toString();
    }
}
