package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.NotMeasured;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Everything a bench run writes to results.json; documented in docs/results-schema.md and results.schema.json. */
public record Results(int schemaVersion, String startedAt, String finishedAt, boolean interrupted,
                      Map<String, Object> workload, Environment environment, List<CellResult> runs,
                      List<NotMeasured> skipped, List<ComparisonRow> comparison, Verdict verdict) {

    public static final int SCHEMA_VERSION = 3;

    /** The results of a run, with the comparison table and the verdict derived from its cells. */
    public static Results of(Instant started, Instant finished, boolean interrupted, Map<String, Object> workload,
                             Environment environment, List<CellResult> runs, List<NotMeasured> skipped) {
        return new Results(SCHEMA_VERSION, started.toString(), finished.toString(), interrupted, workload,
                environment, runs, skipped, ComparisonRow.of(runs), Verdict.of(runs, paced(workload)));
    }

    /** Whether the run offered a fixed rate: its latency is then read from the messages each window sent. */
    static boolean paced(Map<String, Object> workload) {
        return workload.get("producer_rate") instanceof Number rate && rate.intValue() > 0;
    }
}
