package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ServerStats;

import java.util.List;
import java.util.Objects;

/**
 * PostgreSQL's figures of a cell over the repetitions that read them: each the median of the
 * repetitions' own, with min and max. The CPU figures are null when no repetition saw the server's processes.
 */
public record ServerRange(Range walBytes, Range walBytesPerMessage, Range postgresCpuSeconds,
                          Range postgresCpuPercent, Range tableBytes, Range indexBytes, Range deadTuples,
                          Range autovacuumRuns) {

    /** Over the repetitions' figures (null for a repetition that could not read them); null when none could. */
    public static ServerRange of(List<ServerStats> repetitions) {
        List<ServerStats> read = repetitions.stream().filter(Objects::nonNull).toList();
        if (read.isEmpty()) {
            return null;
        }
        return new ServerRange(Range.over(read, ServerStats::walBytes),
                Range.over(read, ServerStats::walBytesPerMessage),
                Range.overPresent(read, ServerStats::postgresCpuSeconds),
                Range.overPresent(read, ServerStats::postgresCpuPercent), Range.over(read, ServerStats::tableBytes),
                Range.over(read, ServerStats::indexBytes), Range.over(read, ServerStats::deadTuples),
                Range.over(read, ServerStats::autovacuumRuns));
    }
}
