package io.dbqueue.bench.cli;

import io.dbqueue.bench.workload.Workload;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workload flags as parsed, without running anything. */
class WorkloadOptionsTest {

    @Test
    void listsOfProducersAndConsumersAreASweepAndOneNumberIsOneValue() {
        Workload sweep = workload("--profile", "quick", "--producers", "1,2,3", "--consumers", "1,3");
        assertEquals(List.of(1, 2, 3), sweep.producerCounts());
        assertEquals(List.of(1, 3), sweep.consumerCounts());
        assertEquals(List.of(1, 2, 3), options().describe(sweep).get("producers"), "results.json's workload");

        Workload single = workload("--profile", "quick", "--producers", "4");
        assertEquals(4, single.producers());
    }

    @Test
    void holdingTheXminHorizonIsOffUnlessAskedAndRecordedEitherWay() {
        Workload stock = workload("--profile", "priorities");
        assertFalse(stock.holdXmin());
        assertEquals(false, options().describe(stock).get("hold_xmin"));

        Workload held = workload("--profile", "priorities", "--hold-xmin");
        assertTrue(held.holdXmin());
        assertEquals(true, options().describe(held).get("hold_xmin"), "results.json's workload");
    }

    private static Workload workload(String... args) {
        return options(args).workload();
    }

    private static WorkloadOptions options(String... args) {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.workloadOptions;
    }
}
