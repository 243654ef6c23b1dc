package io.dbqueue.bench.report;

import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.LatencyRange;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict's comparisons, from cell results made up for the purpose: no database. */
class VerdictTest {

    @Test
    void theLibraryIsMeasuredAgainstBothPgbenchCeilingsOfItsOwnCell() {
        Verdict verdict = Verdict.of(List.of(
                cell("direct", "dbq_seq", 100, 40_000), cell("pgbench", "dbq_seq", 100, 50_000),
                cell("pgbench-minimal", "dbq_seq", 100, 45_000), cell("raw-sql", "dbq_seq", 100, 32_000),
                cell("direct", "dbq_seq", 10, 15_000), cell("pgbench", "dbq_seq", 10, 12_000)), false);
        assertEquals("dbq_seq batch 100", verdict.winner());
        assertEquals(80.0, verdict.libraryToCeilingPct());
        assertEquals(88.9, verdict.libraryToMinimalPct());
        assertEquals(125.0, verdict.libraryToRawSqlPct());
        assertEquals(2, verdict.ceilings().size());
        assertEquals(125.0, verdict.ceilings().get(1).directToPgbenchPct());
        assertNull(verdict.ceilings().get(1).directToMinimalPct(), "pgbench-minimal did not run at batch 10");
        String text = String.join(" ", verdict.text());
        assertTrue(text.contains("80 % of pgbench running the library's own statements (the ceiling) and 89 % of"
                + " pgbench on the minimal queue"), text);
        assertTrue(text.contains("between 80 % and 125 % of pgbench"), text);
        assertTrue(text.contains("raw-sql, the cost of a JDBC loop, not a ceiling"), text);
    }

    @Test
    void withoutPgbenchTheVerdictSaysTheCeilingIsUnknown() {
        Verdict verdict = Verdict.of(List.of(cell("direct", "dbq_seq", 100, 40_000),
                cell("raw-sql", "dbq_seq", 100, 38_000)), false);
        assertNull(verdict.libraryToCeilingPct());
        assertTrue(String.join(" ", verdict.text()).contains("pgbench was not measured alongside the library"));
    }

    @Test
    void theMinimalQueueRunsOncePerBatchSizeAndPairsWithEveryLayout() {
        Verdict verdict = Verdict.of(List.of(
                cell("direct", "queue_tasks_2", 10, 9_000), cell("pgbench", "queue_tasks_2", 10, 10_000),
                cell("pgbench-minimal", "queue_tasks_2", 10, 20_000),
                cell("direct", "dbq_seq", 10, 12_000), cell("pgbench", "dbq_seq", 10, 12_000)), false);
        assertEquals("dbq_seq batch 10", verdict.winner());
        assertEquals(100.0, verdict.libraryToCeilingPct());
        assertEquals(60.0, verdict.libraryToMinimalPct(), "dbq_seq against the minimal queue run with queue_tasks_2");
        assertNull(verdict.libraryToRawSqlPct());
        String text = String.join(" ", verdict.text());
        assertTrue(text.contains("Per layout and batch size, the library's median as a percentage of pgbench's and"
                + " pgbench-minimal's: queue_tasks_2 batch 10 90 % / 45 %; dbq_seq batch 10 100 % / 60 %."), text);
        assertTrue(text.contains("between 90 % and 100 % of pgbench."), text);
        assertTrue(text.contains("between 45 % and 60 % of pgbench-minimal."), text);
    }

    @Test
    void thePubSubPartSetsTheLogAgainstKafkaOnReadsAndSaysWhichToUse() {
        String close = String.join(" ", Verdict.of(List.of(pubSub("log", 20_000, 5, 120),
                pubSub("kafka", 21_000, 5, 60), pubSub("kafka-fsync", 10_000, 5, 180)), false).text());
        assertTrue(close.contains("Pub/sub: the log wrote 20,000 and read 100,000 messages/s (all groups together),"
                + " p99 120.0 ms from write to read."), close);
        assertTrue(close.contains("Kafka (its default: the OS flushes) wrote 21,000 and read 105,000 messages/s,"
                + " p99 60.0 ms: the log read 95 % of its rate."), close);
        assertTrue(close.contains("Kafka (an fsync before each acknowledgement) wrote 10,000 and read 50,000"
                + " messages/s, p99 180.0 ms: the log read 200 % of its rate."), close);
        assertTrue(close.contains("about as well as Kafka"), close);
        assertTrue(!close.contains("On the same machine kafka"), "Kafka is not compared as a queue broker: " + close);

        String far = String.join(" ", Verdict.of(List.of(pubSub("log", 10_000, 5, 120),
                pubSub("kafka", 40_000, 5, 60)), false).text());
        assertTrue(far.contains("Kafka read 4.0 times the log's rate here: if the load is near 10,000 messages/s"
                + " written, or must grow past it, Kafka is the better choice on this hardware."), far);
    }

    /**
     * At a fixed rate the p99 quoted is that of the messages each window sent, followed to delivery: the window's own
     * leaves out what a system that fell behind still owed, and made it look faster.
     */
    @Test
    void atAFixedRateThePubSubP99IsOfTheMessagesTheWindowSent() {
        CellResult behind = withCohort(pubSub("log", 10_000, 5, 120), new CohortLatency(50_000, 2_500, 1_000, 300, 1_000));
        String paced = String.join(" ", Verdict.of(List.of(behind), true).text());
        assertTrue(paced.contains("p99 1000.0 ms from write to read"), paced);
        String closedLoop = String.join(" ", Verdict.of(List.of(behind), false).text());
        assertTrue(closedLoop.contains("p99 120.0 ms from write to read"), closedLoop);
    }

    private static CellResult withCohort(CellResult cell, CohortLatency cohort) {
        Sample sample = new Sample(1, 1, 0, 0, 0, 0, false, LatencySummary.NONE, LatencySummary.NONE,
                LatencySummary.NONE, null, null, List.of(), List.of(), List.of(), null, List.of(), null, cohort);
        return new CellResult(cell.driver(), cell.layout(), cell.batchSize(), cell.producers(), cell.consumers(),
                cell.repetitions(), cell.throughput(), cell.enqueueThroughput(), cell.spreadPct(), cell.latencyMs(),
                cell.writeLatencyMs(), cell.readLatencyMs(), cell.server(), cell.client(), cell.stability(), 1,
                List.of(sample));
    }

    @Test
    void inASweepOfProducersAndConsumersTheLibraryIsMeasuredAgainstTheCeilingOfItsOwnCombination() {
        Verdict verdict = Verdict.of(List.of(cell("direct", "dbq_seq", 100, 1, 1, 20_000),
                cell("pgbench", "dbq_seq", 100, 1, 1, 40_000), cell("direct", "dbq_seq", 100, 2, 2, 30_000),
                cell("pgbench", "dbq_seq", 100, 2, 2, 50_000)), false);

        assertEquals("dbq_seq batch 100, 2 producers x 2 consumers", verdict.winner());
        assertEquals("dbq_seq batch 100, 1 producers x 1 consumers", verdict.runnerUp());
        assertEquals(60.0, verdict.libraryToCeilingPct(), "against pgbench with 2 producers and 2 consumers");
        String text = String.join(" ", verdict.text());
        assertTrue(text.contains("dbq_seq batch 100, 1 producers x 1 consumers 50 %; dbq_seq batch 100, 2 producers x 2"
                + " consumers 60 %."), text);
    }

    private static CellResult pubSub(String driver, double writes, int groups, double p99) {
        Range written = new Range(writes, writes, writes);
        Range read = new Range(writes * groups, writes * groups, writes * groups);
        return new CellResult(DriverName.of(driver), "none", 100, 10, 4, 3, read, written, 5,
                LatencyRange.of(List.of(new LatencySummary(0, 0, 0, 0, p99, p99))), LatencyRange.NONE,
                LatencyRange.NONE, null, null, null, 1,
                List.of());
    }

    private static CellResult cell(String driver, String layout, int batch, double median) {
        return cell(driver, layout, batch, 2, 4, median);
    }

    private static CellResult cell(String driver, String layout, int batch, int producers, int consumers,
                                   double median) {
        Range throughput = new Range(median, median * 0.95, median * 1.05);
        return new CellResult(DriverName.of(driver), layout, batch, producers, consumers, 3, throughput, throughput, 10,
                LatencyRange.NONE, LatencyRange.NONE, LatencyRange.NONE, null, null, null, 1, List.of());
    }
}
