package io.dbqueue.bench.answer;

import io.dbqueue.bench.metrics.BrokerStats;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.run.Sample;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateStepsTest {

    @Test
    void everyFigureIsTheMedianOfTheRepetitionsOwnFiguresNotOneRepetitions() {
        // the repetition with the median throughput (2) has the lowest p99: the step must not quote it
        List<Sample> samples = List.of(sample(1, 9_900, 80), sample(2, 10_000, 28), sample(3, 10_100, 74));
        RateStep step = RateSteps.of(10_000, 1, samples);
        assertEquals(74, step.p99Ms().median());
        assertEquals(28, step.p99Ms().min());
        assertEquals(80, step.p99Ms().max());
        assertEquals(10_000, step.delivered().median());
    }

    @Test
    void deliveredIsPerGroupAndCostsPerMessageSent() {
        RateStep step = RateSteps.of(10_000, 5, List.of(sample(1, 50_000, 10)));
        assertEquals(10_000, step.delivered().median(), "5 groups each received 10,000/s");
        // 2 s of server CPU and 20 MB of WAL over 20,000 messages sent in the 2 s window
        assertEquals(100, step.serverCpuUs().median());
        assertEquals(1_000, step.writtenBytes().median());
        // the client used 50 % of a core for 2 s
        assertEquals(50, step.clientCpuUs().median());
    }

    @Test
    void aBrokersCostsAreItsProcesss() {
        BrokerStats broker = new BrokerStats("beam.smp (pid 1)", 1.0, 50, 10, 40_000_000L, 2_000.0);
        RateStep step = RateSteps.of(10_000, 1, List.of(sample(1, 10_000, 10, null, broker)));
        assertEquals(50, step.serverCpuUs().median());
        assertEquals(2_000, step.writtenBytes().median());
    }

    /** The figures compared with a target keep their microseconds: 50.04 ms must not round to a p99 that meets 50. */
    @Test
    void latencyIsNotRoundedToTenthsBeforeItMeetsATarget() {
        RateStep step = RateSteps.of(10_000, 1, List.of(sample(1, 10_000, 50.04)));
        assertEquals(50.04, step.p99Ms().median());
        assertFalse(step.meets(50));
    }

    /** Where the lab followed the window's messages past its end, their latency is the one the step quotes. */
    @Test
    void theFollowedMessagesLatencyIsQuotedAndWhatIsStillOwedIsCounted() {
        CohortLatency followed = new CohortLatency(20_000, 400, 1_000, 30, 1_000);
        RateStep step = RateSteps.of(10_000, 1, List.of(withCohort(sample(1, 10_000, 10), followed)));
        assertEquals(1_000, step.p99Ms().median(), "not the 10 ms of what the window delivered");
        assertEquals(2.0, step.owedPercent().median());
        assertFalse(step.keptUp(), "2 % of the window's messages undelivered a second after it: falling behind");

        CohortLatency caughtUp = new CohortLatency(20_000, 0, 1_000, 5, 12);
        RateStep kept = RateSteps.of(10_000, 1, List.of(withCohort(sample(1, 10_000, 10), caughtUp)));
        assertEquals(12, kept.p99Ms().median());
        assertTrue(kept.keptUp());
    }

    /** Owed deliveries just over 1 % are not rounded down to a rate kept up. */
    @Test
    void justOverOnePercentOwedIsNotKeptUp() {
        CohortLatency justOver = new CohortLatency(1_600_000, 16_001, 1_000, 30, 1_000);
        RateStep step = RateSteps.of(10_000, 1, List.of(withCohort(sample(1, 10_000, 10), justOver)));
        assertFalse(step.keptUp(), "owed " + step.owedPercent());
    }

    private static Sample withCohort(Sample s, CohortLatency cohort) {
        return new Sample(s.repetition(), s.seconds(), s.enqueued(), s.processed(), s.processedPerSecond(),
                s.enqueuedPerSecond(), s.interrupted(), s.latencyMs(), s.writeLatencyMs(), s.readLatencyMs(), s.server(),
                s.client(), s.series(), s.latencyBuckets(), s.serverMinutes(), s.broker(), s.shards(), s.claims(),
                cohort);
    }

    private static Sample sample(int repetition, double processedPerSecond, double p99) {
        return sample(repetition, processedPerSecond, p99,
                new ServerStats(20_000_000, 1_000, 2.0, 100.0, 0, 0, 0, 0, 100.0), null);
    }

    private static Sample sample(int repetition, double processedPerSecond, double p99, ServerStats server,
                                 BrokerStats broker) {
        LatencySummary latency = new LatencySummary(1, p99 / 4, p99 / 4, p99 / 2, p99, p99 * 2);
        return new Sample(repetition, 2, 20_000, (long) (processedPerSecond * 2), processedPerSecond, 10_000, false,
                latency, LatencySummary.NONE, LatencySummary.NONE, server, new ClientStats(50, 10, 0, 4, 1.0, 25),
                List.of(), List.of(), List.of(), broker);
    }
}
