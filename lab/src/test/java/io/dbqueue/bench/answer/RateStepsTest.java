package io.dbqueue.bench.answer;

import io.dbqueue.bench.metrics.BrokerStats;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.run.Sample;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
