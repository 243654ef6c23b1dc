package io.dbqueue.bench.run;

import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MatrixRunnerTest {

    @Test
    void repetitionsRunInRoundsSoThatEveryCellSeesTheWholeRun() {
        Cell direct = new Cell(DriverName.DIRECT, "dbq_seq", 10, 1, 2);
        Cell pgbench = new Cell(DriverName.PGBENCH, "dbq_seq", 10, 1, 2);
        Cell minimal = new Cell(DriverName.PGBENCH_MINIMAL, "dbq_seq", 10, 1, 2);

        List<MatrixRunner.Scheduled> order = MatrixRunner.schedule(List.of(direct, pgbench, minimal), 2);

        assertEquals(List.of(
                new MatrixRunner.Scheduled(direct, 1), new MatrixRunner.Scheduled(pgbench, 1),
                new MatrixRunner.Scheduled(minimal, 1), new MatrixRunner.Scheduled(direct, 2),
                new MatrixRunner.Scheduled(pgbench, 2), new MatrixRunner.Scheduled(minimal, 2)), order);
    }
}
