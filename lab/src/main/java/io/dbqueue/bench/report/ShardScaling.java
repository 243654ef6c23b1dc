package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;
import io.dbqueue.bench.workload.DriverName;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a run with shards shows, from same-run ratios: the efficiency of a cell over N shards (its combined
 * processed/s over the one-shard cell's, same layout, batch size and clients) and the router's overhead
 * (the one-shard cell through ShardedDbQueue against the direct driver without a shard set). Each is the
 * ratio of the two cells' medians, with the range of the ratios of the repetitions that ran in the same
 * round (side by side in time).
 */
final class ShardScaling {

    /** {@code ratioPct}: 100 x the cell's median / the reference's; {@code roundsPct}: the same per round. */
    record Ratio(CellResult cell, CellResult reference, double ratioPct, Range roundsPct) {

        /** The overhead in percent when the reference is the cheaper path: 100 - ratio. */
        double overheadPct() {
            return Math.round(10 * (100 - ratioPct)) / 10.0;
        }
    }

    private ShardScaling() {
    }

    /** Every sharded cell against the one-shard cell of its layout, batch size and clients. */
    static List<Ratio> efficiency(List<CellResult> runs) {
        List<Ratio> ratios = new ArrayList<>();
        for (CellResult cell : runs) {
            if (cell.driver().shards() > 0) {
                partner(runs, cell, DriverName.sharded(1)).ifPresent(one -> ratios.add(ratio(cell, one)));
            }
        }
        return ratios;
    }

    /** The one-shard cells against the direct driver's of their layout, batch size and clients. */
    static List<Ratio> routing(List<CellResult> runs) {
        List<Ratio> ratios = new ArrayList<>();
        for (CellResult cell : runs) {
            if (cell.driver() == DriverName.SHARDED_1) {
                partner(runs, cell, DriverName.DIRECT).ifPresent(direct -> ratios.add(ratio(cell, direct)));
            }
        }
        return ratios;
    }

    private static Optional<CellResult> partner(List<CellResult> runs, CellResult cell, DriverName driver) {
        return runs.stream().filter(c -> c.driver() == driver && c.layout().equals(cell.layout())
                && c.batchSize() == cell.batchSize() && c.producers() == cell.producers()
                && c.consumers() == cell.consumers()).findFirst();
    }

    static Ratio ratio(CellResult cell, CellResult reference) {
        List<Double> rounds = new ArrayList<>();
        for (Sample sample : cell.samples()) {
            reference.samples().stream().filter(r -> r.repetition() == sample.repetition()
                            && r.processedPerSecond() > 0).findFirst()
                    .ifPresent(r -> rounds.add(100 * sample.processedPerSecond() / r.processedPerSecond()));
        }
        double median = reference.throughput().median();
        double pct = median == 0 ? 0 : Math.round(1000 * cell.throughput().median() / median) / 10.0;
        return new Ratio(cell, reference, pct, rounds.isEmpty() ? null : Range.of(rounds));
    }
}
