package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * One bar of a matrix chart: a cell's median processed/s, and its slowest and fastest repetitions as
 * the ends of its range, each where it was measured (a range is seldom symmetric about the median).
 */
record RangeBar(String category, double median, double min, double max) {

    /**
     * A bar per cell of one driver, named by {@code label}, in the order of the layouts' first appearance,
     * then by batch size, producers and consumers.
     */
    static List<RangeBar> of(List<CellResult> cells, Function<CellResult, String> label) {
        List<String> layouts = cells.stream().map(CellResult::layout).distinct().toList();
        return cells.stream()
                .sorted(Comparator.comparingInt((CellResult c) -> layouts.indexOf(c.layout()))
                        .thenComparingInt(CellResult::batchSize).thenComparingInt(CellResult::producers)
                        .thenComparingInt(CellResult::consumers))
                .map(c -> new RangeBar(label.apply(c), c.throughput().median(), c.throughput().min(),
                        c.throughput().max()))
                .toList();
    }
}
