package io.dbqueue.bench.scenario;

import java.util.List;

/**
 * One scenario run of one mode and fairness setting. Latencies in milliseconds: pickup from the
 * producer's acknowledged commit to the worker's claim, end to end from the task's due time to its
 * acknowledged finish, lateness from an attempt's due time to its claim, for the attempts that came due
 * after they were written (delayed tasks, retries); all over the tasks due in the measured window.
 *
 * @param throughput        tasks finished per second within the window
 * @param sent              tasks due in the window and sent
 * @param completed         of those, finished (not dead-lettered)
 * @param claimedBeforeAck  tasks claimed before their producer heard of the commit (pickup counted as 0)
 * @param tenants           per tenant: pickup over the window's tasks, tasks finished within the window
 * @param quietPickupP95    with a noisy tenant (tenant 0), the other tenants' pickup p95, pooled; else 0
 * @param failures          over every task of the run (warm-up included), after the drain
 * @param undrained         tasks neither finished nor dead-lettered when the drain gave up
 * @param notifications     NOTIFYs the producers sent
 * @param switches          adaptive switches between listening and polling, all consumer processes
 * @param threads           live threads of the consumer JVMs at the window's end (in-process: the lab's whole JVM)
 * @param rssMb             resident memory of the consumer JVMs at the window's end (in-process: the lab's)
 * @param connections       the database's connections at the window's end (producers, consumers, listeners)
 * @param startedRate       attempts started per second within the window (claims, retries included)
 */
public record RunResult(double throughput, long sent, long completed, Latency pickup, Latency endToEnd,
                        Latency lateness, long claimedBeforeAck, List<TenantResult> tenants, double quietPickupP95,
                        FailureCount failures, long undrained,
                        long notifications, long switches, long threads, double rssMb, long connections,
                        double startedRate) {

    /** p50, p95 and p99 in milliseconds. */
    public record Latency(double p50, double p95, double p99) {
    }

    /** One tenant's pickup p95 over its window's tasks, and how many of its tasks finished within the window. */
    public record TenantResult(int tenant, double pickupP95, long completed) {
    }

    /** Planned failures against those the listener saw. */
    public record FailureCount(long injectedFailures, long injectedDead, long failedAttempts, long deadLettered) {

        public boolean matches() {
            return injectedFailures == failedAttempts && injectedDead == deadLettered;
        }
    }

    /** The noisy tenant's pickup p95 over the quiet tenants' (pooled); 0 without a noisy tenant or quiet pickups. */
    public double fairnessRatio() {
        return tenants.stream().filter(t -> t.tenant() == 0).findFirst()
                .map(t -> quietPickupP95 == 0 ? 0 : t.pickupP95() / quietPickupP95).orElse(0.0);
    }
}
