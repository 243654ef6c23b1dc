package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.workload.Cell;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A measured cell: throughput as median and min-max over its repetitions; latency (end to end,
 * and its write and read parts where measured), server and client figures and the stability check from the median repetition (the one whose processed/s is
 * the median, the lower one of the middle two for an even count).
 */
public record CellResult(String driver, String layout, int batchSize, int repetitions, Range throughput,
                         Range enqueueThroughput, double spreadPct, LatencySummary latencyMs,
                         LatencySummary writeLatencyMs, LatencySummary readLatencyMs, ServerStats server,
                         ClientStats client, Stability stability, int medianRepetition, List<Sample> samples) {

    static CellResult of(Cell cell, List<Repetition> repetitions) {
        List<Sample> samples = IntStream.range(0, repetitions.size())
                .mapToObj(i -> Sample.of(i + 1, repetitions.get(i))).toList();
        Range throughput = Range.of(samples.stream().map(Sample::processedPerSecond).toList());
        Range enqueued = Range.of(samples.stream().map(Sample::enqueuedPerSecond).toList());
        List<Sample> byThroughput = samples.stream().sorted(Comparator.comparingDouble(Sample::processedPerSecond))
                .toList();
        Sample median = byThroughput.get((byThroughput.size() - 1) / 2);
        return new CellResult(cell.driver(), cell.layout(), cell.batchSize(), samples.size(), throughput, enqueued,
                throughput.spreadPercent(), median.latencyMs(), median.writeLatencyMs(), median.readLatencyMs(),
                median.server(), median.client(),
                Stability.of(median.series()), median.repetition(), samples);
    }

    public Cell cell() {
        return new Cell(driver, layout, batchSize);
    }

    public Sample median() {
        return samples.get(medianRepetition - 1);
    }
}
