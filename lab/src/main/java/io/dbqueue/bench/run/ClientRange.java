package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ClientStats;

import java.util.List;
import java.util.Objects;

/** The client's figures of a cell over the repetitions that read them: each the median of the repetitions' own, with min and max. */
public record ClientRange(Range cpuPercent, Range threads, Range rssBytes, Range connections) {

    /** Over the repetitions' figures (null for a repetition that could not read them); null when none could. */
    public static ClientRange of(List<ClientStats> repetitions) {
        List<ClientStats> read = repetitions.stream().filter(Objects::nonNull).toList();
        if (read.isEmpty()) {
            return null;
        }
        return new ClientRange(Range.over(read, ClientStats::cpuPercent), Range.over(read, ClientStats::threads),
                Range.over(read, ClientStats::rssBytes), Range.over(read, ClientStats::connections));
    }
}
