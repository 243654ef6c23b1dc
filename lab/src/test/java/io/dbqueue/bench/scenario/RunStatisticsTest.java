package io.dbqueue.bench.scenario;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run's figures from its ledger: window, percentiles, early claims and the failure count. */
class RunStatisticsTest {

    @Test
    void percentilesAreNearestRankInMilliseconds() {
        long[] micros = new long[100];
        for (int i = 0; i < 100; i++) {
            micros[i] = (i + 1) * 1000L; // 1 ms .. 100 ms
        }
        assertEquals(new RunResult.Latency(50, 95, 99), RunStatistics.latency(micros));
        assertEquals(new RunResult.Latency(0, 0, 0), RunStatistics.latency(new long[0]));
    }

    @Test
    void onlyTheWindowsTasksCountAndEarlyClaimsAreZero() {
        TaskLedger ledger = new TaskLedger();
        ledger.sent(1, 0, 0, 500, 600);        // due before the window: ignored in latencies
        ledger.claimed(1, 1, 900);
        ledger.finished(1, 1_500);
        ledger.claimed(2, 1, 1_900);           // claimed before the producer heard of its commit
        ledger.sent(2, 1, 0, 1_000, 2_000);
        ledger.finished(2, 3_000);
        ledger.sent(3, 1, 0, 1_200, 1_300);
        ledger.claimed(3, 1, 5_300);
        ledger.finished(3, 6_200);
        RunStatistics stats = new RunStatistics(ledger.entries(), 1_000, 11_000, Integer.MAX_VALUE);
        assertEquals(2, stats.sent());
        assertEquals(2, stats.completed());
        assertEquals(1, stats.claimedBeforeAck());
        assertEquals(4.0, stats.pickup(e -> true).p99(), "3's pickup of 4 ms; 2's counts as 0");
        assertEquals(0.0, stats.pickup(e -> true).p50());
        assertEquals(5.0, stats.endToEnd().p99());
        assertEquals(3 / 0.01, stats.throughput(), 1e-9, "three finished within 10 ms");
        assertEquals(List.of(0, 1), stats.tenants().stream().map(RunResult.TenantResult::tenant).toList());
    }

    @Test
    void latenessRunsFromEachLaterDueTimeToItsAttemptsClaim() {
        TaskLedger ledger = new TaskLedger();
        ledger.sent(1, 0, 1, 1_000, 1_100);    // delayed to 1,300, fails once, retried at 2,000
        ledger.comesDue(1, 1, 1_300);
        ledger.claimed(1, 1, 1_310);
        ledger.comesDue(1, 2, 2_000);
        ledger.claimed(1, 2, 5_000);
        ledger.sent(2, 0, 0, 1_500, 1_600);    // neither delayed nor retried: no lateness
        ledger.claimed(2, 1, 1_700);
        RunStatistics stats = new RunStatistics(ledger.entries(), 1_000, 11_000, Integer.MAX_VALUE);
        assertEquals(new RunResult.Latency(0.0, 3.0, 3.0), stats.lateness(), "10 us and 3 ms");
        assertEquals(0.0, stats.pickup(e -> e.tenant == 0 && e.plannedFailures == 1).p99(),
                "a delayed task's pickup runs from its due time");
    }

    @Test
    void failuresMatchOnlyWhenEveryPlannedOneWasSeen() {
        TaskLedger ledger = new TaskLedger();
        ledger.sent(1, 0, 2, 0, 1);            // fails twice, then succeeds
        ledger.failed(1, false);
        ledger.failed(1, false);
        ledger.finished(1, 10);
        ledger.sent(2, 0, 3, 0, 1);            // fails every one of 3 attempts: dead-lettered
        ledger.failed(2, false);
        ledger.failed(2, false);
        ledger.failed(2, true);
        RunResult.FailureCount count = new RunStatistics(ledger.entries(), 0, 100, 3).failures();
        assertEquals(new RunResult.FailureCount(5, 1, 5, 1), count);
        assertTrue(count.matches());
        ledger.failed(1, false);
        assertFalse(new RunStatistics(ledger.entries(), 0, 100, 3).failures().matches());
        assertEquals(0, new RunStatistics(ledger.entries(), 0, 100, 3).undrained());
    }
}
