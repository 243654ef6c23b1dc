package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.LatencyRange;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The enqueuers x dequeuers table, from cell results made up for the purpose. */
class ClientMatrixTest {

    @Test
    void eachCombinationSetsTheEnqueueRateBesideTheDequeueRate() {
        List<CellResult> runs = List.of(cell("direct", 1, 2, 1000, 1000), cell("pgbench-minimal", 1, 1, 900, 900),
                cell("direct", 2, 1, 2000, 1500), cell("direct", 1, 1, 1000, 800));

        assertTrue(ClientMatrix.sweeps(runs));
        assertEquals(List.of(
                List.of("direct", "dbq_seq", "10", "1", "1", "1,000", "800", "80"),
                List.of("direct", "dbq_seq", "10", "1", "2", "1,000", "1,000", "100"),
                List.of("direct", "dbq_seq", "10", "2", "1", "2,000", "1,500", "75"),
                List.of("pgbench-minimal", "dbq_seq", "10", "1", "1", "900", "900", "100")), ClientMatrix.rows(runs));
    }

    @Test
    void oneCombinationIsNoSweep() {
        assertFalse(ClientMatrix.sweeps(List.of(cell("direct", 2, 4, 1, 1), cell("pgbench", 2, 4, 1, 1))));
    }

    private static CellResult cell(String driver, int producers, int consumers, double enqueued, double dequeued) {
        return new CellResult(DriverName.of(driver), "dbq_seq", 10, producers, consumers, 3, new Range(dequeued, dequeued, dequeued),
                new Range(enqueued, enqueued, enqueued), 0, LatencyRange.NONE, LatencyRange.NONE, LatencyRange.NONE,
                null, null, null, 1, List.of());
    }
}
