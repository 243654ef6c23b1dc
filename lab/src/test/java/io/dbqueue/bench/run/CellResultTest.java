package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ClaimSummary;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A cell's figures over its repetitions, from samples made up for the purpose: no database. */
class CellResultTest {

    private static final Cell CELL = new Cell(DriverName.DIRECT, "dbq_seq", 10, 2, 4);

    @Test
    void everyFigureIsTheMedianOfTheRepetitionsOwnNotTheFigureOfOneRepetition() {
        // an open-loop cell: every repetition has the same throughput, their latencies differ; repetition 2,
        // the median by throughput, has none of the median figures
        CellResult cell = CellResult.fromSamples(CELL, List.of(
                sample(1, 1000, latency(9, 74), server(250, 60.0), client(50)),
                sample(2, 1000, latency(5, 28), server(300, 70.0), client(60)),
                sample(3, 1000, latency(7, 80), server(200, 50.0), client(40))));

        assertEquals(new Range(74, 28, 80), cell.latencyMs().p99());
        assertEquals(new Range(7, 5, 9), cell.latencyMs().p50());
        assertEquals(74, cell.latencyMs().median().p99());
        assertEquals(new Range(250, 200, 300), cell.server().walBytesPerMessage());
        assertEquals(new Range(60, 50, 70), cell.server().postgresCpuPercent());
        assertEquals(new Range(50, 40, 60), cell.client().cpuPercent());
        assertEquals(new Range(1000, 1000, 1000), cell.throughput());
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwoForEveryFigureAsRangeDoes() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(
                sample(1, 400, latency(1, 10), server(100, 10.0), client(10)),
                sample(2, 100, latency(2, 40), server(400, 40.0), client(40)),
                sample(3, 300, latency(3, 20), server(200, 20.0), client(20)),
                sample(4, 200, latency(4, 30), server(300, 30.0), client(30))));

        assertEquals(new Range(25, 10, 40), cell.latencyMs().p99());
        assertEquals(new Range(2.5, 1, 4), cell.latencyMs().p50());
        assertEquals(new Range(250, 100, 400), cell.server().walBytesPerMessage());
        assertEquals(new Range(25, 10, 40), cell.client().cpuPercent());
        assertEquals(new Range(250, 100, 400), cell.throughput());
        assertEquals(4, cell.medianRepetition(), "the series come from the lower middle repetition, 200/s");
    }

    @Test
    void latencyAndServerFiguresAreOverTheRepetitionsThatHaveThem() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(
                sample(1, 100, latency(1, 10), server(100, null), client(10)),
                sample(2, 100, LatencySummary.NONE, null, null),
                sample(3, 100, latency(3, 30), server(300, null), client(30))));

        assertEquals(new Range(20, 10, 30), cell.latencyMs().p99(), "the repetition that measured nothing is left out");
        assertEquals(new Range(200, 100, 300), cell.server().walBytesPerMessage());
        assertNull(cell.server().postgresCpuPercent(), "no repetition saw the server's processes");
        assertEquals(new Range(20, 10, 30), cell.client().cpuPercent());
    }

    @Test
    void aCellWithoutLatencyOrServerFiguresSaysSo() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(sample(1, 100, LatencySummary.NONE, null, null)));

        assertFalse(cell.latencyMs().measured());
        assertNull(cell.server());
        assertNull(cell.client());
    }

    @Test
    void subMillisecondLatenciesKeepTheirMicroseconds() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(sample(1, 100, latency(0.412, 0.934), null, null),
                sample(2, 100, latency(0.418, 0.951), null, null)));

        assertEquals(new Range(0.943, 0.934, 0.951), cell.latencyMs().p99());
    }

    @Test
    void claimFiguresAreOverTheRepetitionsThatTimedClaims() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(
                withClaims(sample(1, 100, latency(1, 10), null, null), new ClaimSummary(50, 100, latency(0.8, 2))),
                sample(2, 100, latency(1, 10), null, null),
                withClaims(sample(3, 100, latency(1, 10), null, null), new ClaimSummary(70, 60, latency(1.2, 4)))));

        assertEquals(new Range(1, 0.8, 1.2), cell.claimMs().p50());
        assertEquals(new Range(3, 2, 4), cell.claimMs().p99());
        assertEquals(new Range(80, 60, 100), cell.tasksPerClaim());
        assertEquals(new Range(60, 50, 70), cell.claimsPerSecond(), "each sample's window is a second long");
    }

    @Test
    void aCellWhoseDriverDoesNotTimeClaimsHasNoClaimFigures() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(sample(1, 100, latency(1, 10), null, null)));

        assertFalse(cell.claimMs().measured());
        assertNull(cell.tasksPerClaim());
        assertNull(cell.claimsPerSecond());
    }

    /**
     * The latency of the messages sent in each window, followed past it, over the repetitions that followed them: at
     * a fixed rate the window's own leaves out what a system that fell behind still owed.
     */
    @Test
    void theCohortsFiguresAreOverTheRepetitionsThatFollowedOne() {
        CellResult cell = CellResult.fromSamples(CELL, List.of(
                withCohort(sample(1, 100, latency(1, 10), null, null), new CohortLatency(1000, 0, 0, 2, 12)),
                sample(2, 100, latency(1, 10), null, null),
                withCohort(sample(3, 100, latency(1, 10), null, null), new CohortLatency(1000, 50, 1000, 3, 1000))));

        assertEquals(new Range(2.5, 2, 3), cell.cohortMs(50));
        assertEquals(new Range(506, 12, 1000), cell.cohortMs(99));
        assertEquals(new Range(2.5, 0, 5), cell.owedPercent());
        assertNull(CellResult.fromSamples(CELL, List.of(sample(1, 100, latency(1, 10), null, null))).cohortMs(99));
    }

    private static Sample withCohort(Sample s, CohortLatency cohort) {
        return new Sample(s.repetition(), s.seconds(), s.enqueued(), s.processed(), s.processedPerSecond(),
                s.enqueuedPerSecond(), s.interrupted(), s.latencyMs(), s.writeLatencyMs(), s.readLatencyMs(), s.server(),
                s.client(), s.series(), s.latencyBuckets(), s.serverMinutes(), s.broker(), s.shards(), s.claims(), cohort);
    }

    private static Sample withClaims(Sample s, ClaimSummary claims) {
        return new Sample(s.repetition(), s.seconds(), s.enqueued(), s.processed(), s.processedPerSecond(),
                s.enqueuedPerSecond(), s.interrupted(), s.latencyMs(), s.writeLatencyMs(), s.readLatencyMs(), s.server(),
                s.client(), s.series(), s.latencyBuckets(), s.serverMinutes(), s.broker(), s.shards(), claims,
                s.cohortLatencyMs());
    }

    private static LatencySummary latency(double p50, double p99) {
        return new LatencySummary(p50 / 2, p50, p50, p99 * 0.9, p99, p99 * 2);
    }

    private static ServerStats server(double walPerMessage, Double cpuPercent) {
        return new ServerStats((long) walPerMessage * 1000, walPerMessage, cpuPercent, cpuPercent, 8192, 8192, 0, 1,
                null);
    }

    private static ClientStats client(double cpuPercent) {
        return new ClientStats(cpuPercent, 20, 1 << 20, 4, cpuPercent / 100, 0);
    }

    private static Sample sample(int repetition, double perSecond, LatencySummary latency, ServerStats server,
                                 ClientStats client) {
        return new Sample(repetition, 1, (long) perSecond, (long) perSecond, perSecond, perSecond, false, latency,
                LatencySummary.NONE, LatencySummary.NONE, server, client, List.of(), List.of(), List.of(), null);
    }
}
