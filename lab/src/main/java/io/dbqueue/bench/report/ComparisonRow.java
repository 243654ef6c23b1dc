package io.dbqueue.bench.report;

import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.workload.DriverName;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A row of the experiment's comparison table, per driver: the cell's median processed/s and its
 * difference to the driver's baseline (queue_tasks_1 batch 1 when measured, else the driver's
 * first cell; of the same producers and consumers when the run sweeps them), plus latency, each percentile the median of the repetitions' own (null for a driver
 * that does not measure it), and the run-to-run spread.
 */
public record ComparisonRow(DriverName driver, String layout, int batchSize, int producers, int consumers, double rps, double rpsMin, double rpsMax,
                            double spreadPct, String baseline, double delta, double deltaPct, Double p50Ms,
                            Double p95Ms, Double p99Ms) {

    static final String BASELINE_LAYOUT = "queue_tasks_1";

    static List<ComparisonRow> of(List<CellResult> runs) {
        List<ComparisonRow> rows = new ArrayList<>();
        runs.stream().map(CellResult::driver).distinct().forEach(driver -> {
            List<CellResult> cells = runs.stream().filter(r -> r.driver() == driver).toList();
            for (CellResult cell : cells) {
                CellResult baseline = baseline(cells.stream().filter(c -> c.producers() == cell.producers()
                        && c.consumers() == cell.consumers()).toList());
                double base = baseline.throughput().median();
                double delta = cell.throughput().median() - base;
                boolean latency = cell.latencyMs().measured();
                LatencySummary medians = cell.latencyMs().median();
                rows.add(new ComparisonRow(driver, cell.layout(), cell.batchSize(), cell.producers(),
                        cell.consumers(), cell.throughput().median(),
                        cell.throughput().min(), cell.throughput().max(), cell.spreadPct(),
                        baseline.layout() + " batch " + baseline.batchSize(), round(delta),
                        base == 0 ? 0 : round(100 * delta / base), latency ? medians.p50() : null,
                        latency ? medians.p95() : null, latency ? medians.p99() : null));
            }
        });
        return rows;
    }

    private static CellResult baseline(List<CellResult> cells) {
        Optional<CellResult> experiment = cells.stream()
                .filter(c -> c.layout().equals(BASELINE_LAYOUT))
                .min(Comparator.comparingInt(CellResult::batchSize));
        return experiment.orElse(cells.get(0));
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
