package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;

/**
 * The library's claims in a window that took at least one task, as its listener timed them (from sending the claim
 * to reading its rows, the lease committed): how many, how many tasks each took on average, and how long each took,
 * in milliseconds. Empty claims (an idle worker's polls) are left out: they would pull the time down by how idle the
 * workers were, not by what a claim costs.
 */
public record ClaimSummary(long claims, double tasksPerClaim, LatencySummary ms) {

    /** The claims timed in {@code micros} that took {@code tasks} in all; null when there were none. */
    static ClaimSummary of(Histogram micros, long tasks) {
        long claims = micros.getTotalCount();
        if (claims == 0) {
            return null;
        }
        return new ClaimSummary(claims, Math.round(tasks * 10.0 / claims) / 10.0, LatencySummary.of(micros));
    }
}
