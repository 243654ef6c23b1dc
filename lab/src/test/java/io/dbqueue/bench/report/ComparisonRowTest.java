package io.dbqueue.bench.report;

import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.LatencyRange;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The comparison table's rows, from cell results made up for the purpose: no database. */
class ComparisonRowTest {

    @Test
    void eachDriverIsComparedWithItsQueueTasks1CellOfTheSmallestBatch() {
        List<ComparisonRow> rows = ComparisonRow.of(List.of(
                cell("direct", "dbq_seq", 10, 1500, latency(80, 74, 28)),
                cell("direct", "queue_tasks_1", 100, 4000, latency(10)),
                cell("direct", "queue_tasks_1", 10, 1000, latency(10)),
                cell("pgbench", "dbq_seq", 10, 2000, LatencyRange.NONE),
                cell("pgbench", "queue_tasks_2", 10, 2500, LatencyRange.NONE)));

        ComparisonRow dbqSeq = rows.get(0);
        assertEquals("queue_tasks_1 batch 10", dbqSeq.baseline());
        assertEquals(500.0, dbqSeq.delta());
        assertEquals(50.0, dbqSeq.deltaPct());
        assertEquals(74.0, dbqSeq.p99Ms(), "the median of the repetitions' p99s");
        assertEquals(300.0, rows.get(1).deltaPct());
        ComparisonRow pgbench = rows.get(4);
        assertEquals("dbq_seq batch 10", pgbench.baseline(), "without queue_tasks_1, the driver's first cell");
        assertEquals(25.0, pgbench.deltaPct());
        assertNull(pgbench.p99Ms(), "pgbench measures no latency");
    }

    @Test
    void theThroughputRangeAndSpreadAreTheCells() {
        ComparisonRow row = ComparisonRow.of(List.of(cell("direct", "dbq_seq", 10, 1000, latency(1)))).get(0);

        assertEquals(1000.0, row.rps());
        assertEquals(900.0, row.rpsMin());
        assertEquals(1200.0, row.rpsMax());
        assertEquals(30.0, row.spreadPct());
        assertEquals(0.0, row.delta(), "its own baseline");
    }

    private static LatencyRange latency(double... p99s) {
        List<LatencySummary> repetitions = java.util.Arrays.stream(p99s)
                .mapToObj(p99 -> new LatencySummary(0.1, p99 / 4, p99 / 2, p99 * 0.9, p99, p99 * 2)).toList();
        return LatencyRange.of(repetitions);
    }

    private static CellResult cell(String driver, String layout, int batch, double median, LatencyRange latency) {
        Range throughput = new Range(median, median * 0.9, median * 1.2);
        return new CellResult(DriverName.of(driver), layout, batch, 1, 1, 3, throughput, throughput, throughput.spreadPercent(), latency,
                LatencyRange.NONE, LatencyRange.NONE, null, null, null, 1, List.of());
    }
}
