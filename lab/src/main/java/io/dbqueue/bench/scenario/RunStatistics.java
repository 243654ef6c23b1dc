package io.dbqueue.bench.scenario;

import io.dbqueue.bench.scenario.RunResult.FailureCount;
import io.dbqueue.bench.scenario.RunResult.Latency;
import io.dbqueue.bench.scenario.RunResult.TenantResult;
import io.dbqueue.bench.scenario.TaskLedger.Entry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/** Turns a run's ledger into its {@link RunResult} figures. */
final class RunStatistics {

    private final Collection<Entry> entries;
    private final long windowStart;
    private final long windowEnd;
    private final int maxAttempts;

    /** {@code maxAttempts}: the retry policy's, to tell planned dead letters from planned retries. */
    RunStatistics(Collection<Entry> entries, long windowStartMicros, long windowEndMicros, int maxAttempts) {
        this.entries = entries;
        this.windowStart = windowStartMicros;
        this.windowEnd = windowEndMicros;
        this.maxAttempts = maxAttempts;
    }

    private boolean inWindow(Entry e) {
        return e.sent() && e.dueMicros >= windowStart && e.dueMicros < windowEnd;
    }

    double throughput() {
        long finished = entries.stream().filter(e -> e.finishMicros >= windowStart && e.finishMicros < windowEnd).count();
        return finished / ((windowEnd - windowStart) / 1e6);
    }

    long sent() {
        return entries.stream().filter(this::inWindow).count();
    }

    long completed() {
        return entries.stream().filter(e -> inWindow(e) && e.finishMicros > 0).count();
    }

    /** From the producer's acknowledgement, or a delayed task's due time when later, to the first claim. */
    Latency pickup(Predicate<Entry> which) {
        return latency(entries.stream().filter(e -> inWindow(e) && which.test(e) && e.firstClaimMicros > 0)
                .mapToLong(e -> Math.max(0, e.firstClaimMicros - Math.max(e.ackMicros, e.dues.getOrDefault(1, 0L))))
                .toArray());
    }

    /** How late each attempt that came due after it was written (delayed, retried) was claimed. */
    Latency lateness() {
        return latency(entries.stream().filter(this::inWindow).flatMapToLong(e -> e.dues.entrySet().stream()
                .filter(due -> e.claims.containsKey(due.getKey()))
                .mapToLong(due -> Math.max(0, e.claims.get(due.getKey()) - due.getValue()))).toArray());
    }

    Latency endToEnd() {
        return latency(entries.stream().filter(e -> inWindow(e) && e.finishMicros > 0)
                .mapToLong(e -> e.finishMicros - e.dueMicros).toArray());
    }

    long claimedBeforeAck() {
        return entries.stream().filter(e -> inWindow(e) && e.firstClaimMicros > 0 && e.firstClaimMicros < e.ackMicros)
                .count();
    }

    List<TenantResult> tenants() {
        int[] tenants = entries.stream().filter(Entry::sent).mapToInt(e -> e.tenant).distinct().sorted().toArray();
        if (tenants.length <= 1) {
            return List.of();
        }
        List<TenantResult> results = new ArrayList<>();
        for (int t : tenants) {
            results.add(new TenantResult(t, pickup(e -> e.tenant == t).p95(), entries.stream()
                    .filter(e -> e.tenant == t && e.finishMicros >= windowStart && e.finishMicros < windowEnd).count()));
        }
        return results;
    }

    FailureCount failures() {
        long injected = 0;
        long injectedDead = 0;
        long failed = 0;
        long dead = 0;
        for (Entry e : entries) {
            if (!e.sent()) {
                continue;
            }
            injected += Math.min(e.plannedFailures, maxAttempts);
            injectedDead += e.plannedFailures >= maxAttempts ? 1 : 0;
            failed += e.failedAttempts;
            dead += e.dead ? 1 : 0;
        }
        return new FailureCount(injected, injectedDead, failed, dead);
    }

    long undrained() {
        return entries.stream().filter(e -> e.sent() && !e.done()).count();
    }

    /** Nearest-rank percentiles of microsecond values, in milliseconds; zeros when there are none. */
    static Latency latency(long[] micros) {
        if (micros.length == 0) {
            return new Latency(0, 0, 0);
        }
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        double[] p = IntStream.of(50, 95, 99).mapToDouble(q -> {
            int rank = (int) Math.ceil(q / 100.0 * sorted.length);
            return Math.round(sorted[Math.max(0, rank - 1)] / 100.0) / 10.0;
        }).toArray();
        return new Latency(p[0], p[1], p[2]);
    }
}
