package io.dbqueue.bench.scenario;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenario's pure rules: when each task is due, whose it is, and how often it fails. */
class ScenarioTest {

    private static Scenario scenario(double rate, Optional<Scenario.Spike> spike, int tenants, double noisyShare,
                                     Optional<Scenario.Failures> failures) {
        return new Scenario("t", "", rate, Duration.ofSeconds(2), Duration.ofSeconds(10), 10, 1, Duration.ZERO, Duration.ZERO, 1,
                tenants, noisyShare, spike, failures, false, List.of(WakeupSetting.parse("notify")),
                List.of(Fairness.OFF), 10, 1, Optional.empty());
    }

    @Test
    void tasksAreDueEvenlyAndTenTimesAsOftenDuringTheSpike() {
        Scenario s = scenario(50, Optional.of(new Scenario.Spike(Duration.ofSeconds(4), Duration.ofSeconds(2), 10)), 1,
                0, Optional.empty());
        assertEquals(0, s.sendNanos(0));
        assertEquals(Duration.ofMillis(20).toNanos(), s.sendNanos(1));
        assertEquals(Duration.ofSeconds(4).toNanos(), s.sendNanos(200), "200 tasks at 50/s before the spike");
        assertEquals(Duration.ofMillis(4002).toNanos(), s.sendNanos(201), "500/s during it");
        assertEquals(Duration.ofSeconds(6).toNanos(), s.sendNanos(1200), 2_000);
        assertEquals(Duration.ofMillis(6020).toNanos(), s.sendNanos(1201), 2_000);
        // 12 s: 200 + 1000 + 300 tasks
        assertEquals(1500, s.taskCount());
    }

    @Test
    void withoutASpikeTheCountIsRateTimesTime() {
        assertEquals(240, scenario(20, Optional.empty(), 1, 0, Optional.empty()).taskCount());
    }

    @Test
    void theNoisyTenantSendsItsShareAndTheOthersSplitTheRest() {
        Scenario s = scenario(50, Optional.empty(), 5, 0.9, Optional.empty());
        int[] perTenant = new int[5];
        for (long k = 0; k < 100_000; k++) {
            perTenant[s.tenantOf(k)]++;
        }
        assertEquals(0.9, perTenant[0] / 100_000.0, 0.01);
        for (int t = 1; t < 5; t++) {
            assertEquals(0.025, perTenant[t] / 100_000.0, 0.005, "tenant " + t);
        }
        Scenario again = scenario(50, Optional.empty(), 5, 0.9, Optional.empty());
        for (long k = 0; k < 1_000; k++) {
            assertEquals(s.tenantOf(k), again.tenantOf(k), "a task's tenant follows from its number alone: " + k);
        }
        Scenario even = scenario(50, Optional.empty(), 4, 0, Optional.empty());
        assertEquals(List.of(0, 1, 2, 3, 0), List.of(even.tenantOf(0), even.tenantOf(1), even.tenantOf(2),
                even.tenantOf(3), even.tenantOf(4)));
    }

    @Test
    void plannedFailuresHitTheShareAndRangeOverTheAttempts() {
        Scenario s = scenario(50, Optional.empty(), 1, 0,
                Optional.of(new Scenario.Failures(0.3, 3, Duration.ofMillis(100))));
        int failing = 0;
        int[] byCount = new int[4];
        for (long k = 0; k < 30_000; k++) {
            int planned = s.plannedFailures(k);
            assertTrue(planned >= 0 && planned <= 3, "planned " + planned);
            byCount[planned]++;
            failing += planned > 0 ? 1 : 0;
        }
        assertEquals(0.3, failing / 30_000.0, 0.01);
        for (int n = 1; n <= 3; n++) {
            assertEquals(1 / 3.0, byCount[n] / (double) failing, 0.03, "failing " + n + " times");
        }
        assertEquals(0, scenario(50, Optional.empty(), 1, 0, Optional.empty()).plannedFailures(7));
    }
}
