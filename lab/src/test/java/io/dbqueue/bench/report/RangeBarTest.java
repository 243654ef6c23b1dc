package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.LatencyRange;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The matrix chart's bars, from cell results made up for the purpose. */
class RangeBarTest {

    @Test
    void theEndsAreTheSlowestAndFastestRepetitionsNotAMirrorOfTheFartherOne() {
        List<RangeBar> bars = RangeBar.of(List.of(cell("dbq_seq", 10, new Range(100, 90, 130))), c -> "x");

        assertEquals(new RangeBar("x", 100, 90, 130), bars.get(0));
    }

    @Test
    void barsFollowTheLayoutsFirstAppearanceThenTheBatchSize() {
        List<RangeBar> bars = RangeBar.of(List.of(cell("queue_tasks_2", 100, new Range(3, 3, 3)),
                cell("dbq_seq", 10, new Range(1, 1, 1)), cell("queue_tasks_2", 10, new Range(2, 2, 2))),
                c -> c.layout() + " b" + c.batchSize());

        assertEquals(List.of("queue_tasks_2 b10", "queue_tasks_2 b100", "dbq_seq b10"),
                bars.stream().map(RangeBar::category).toList());
    }

    private static CellResult cell(String layout, int batch, Range throughput) {
        return new CellResult(DriverName.DIRECT, layout, batch, 1, 1, 3, throughput, throughput, throughput.spreadPercent(),
                LatencyRange.NONE, LatencyRange.NONE, LatencyRange.NONE, null, null, null, 1, List.of());
    }
}
