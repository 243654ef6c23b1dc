package io.dbqueue.bench.run;

import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A measured cell. Every figure is the median over its repetitions of each repetition's own figure,
 * with min and max: throughput, latency (end to end, and its write and read parts where measured),
 * server and client. Only the stability check and the charts of a time series come from one
 * repetition, {@code medianRepetition}: the one whose processed/s is the median (the lower of the
 * middle two for an even count, as a series cannot be averaged).
 */
public record CellResult(DriverName driver, String layout, int batchSize, int producers, int consumers,
                         int repetitions, Range throughput,
                         Range enqueueThroughput, double spreadPct, LatencyRange latencyMs,
                         LatencyRange writeLatencyMs, LatencyRange readLatencyMs, ServerRange server,
                         ClientRange client, Stability stability, int medianRepetition, List<Sample> samples) {

    static CellResult of(Cell cell, List<Repetition> repetitions) {
        return fromSamples(cell, IntStream.range(0, repetitions.size())
                .mapToObj(i -> Sample.of(i + 1, repetitions.get(i))).toList());
    }

    /** The cell's figures derived from its repetitions' samples: at the end of a run, or read back from results.json. */
    public static CellResult fromSamples(Cell cell, List<Sample> samples) {
        Range throughput = Range.over(samples, Sample::processedPerSecond);
        Range enqueued = Range.over(samples, Sample::enqueuedPerSecond);
        Sample median = samples.stream().sorted(Comparator.comparingDouble(Sample::processedPerSecond))
                .toList().get((samples.size() - 1) / 2);
        return new CellResult(cell.driver(), cell.layout(), cell.batchSize(), cell.producers(), cell.consumers(),
                samples.size(), throughput, enqueued,
                throughput.spreadPercent(), LatencyRange.of(samples.stream().map(Sample::latencyMs).toList()),
                LatencyRange.of(samples.stream().map(Sample::writeLatencyMs).toList()),
                LatencyRange.of(samples.stream().map(Sample::readLatencyMs).toList()),
                ServerRange.of(samples.stream().map(Sample::server).toList()),
                ClientRange.of(samples.stream().map(Sample::client).toList()),
                Stability.of(median.series()), median.repetition(), samples);
    }

    public Cell cell() {
        return new Cell(driver, layout, batchSize, producers, consumers);
    }

    /** The time per claim that took tasks, over the repetitions that timed the library's claims. */
    public LatencyRange claimMs() {
        return LatencyRange.of(samples.stream().map(s -> s.claims() == null ? null : s.claims().ms()).toList());
    }

    /** The tasks per claim, over the repetitions that timed the library's claims; null where none did. */
    public Range tasksPerClaim() {
        return Range.overPresent(samples, s -> s.claims() == null ? null : s.claims().tasksPerClaim());
    }

    /** The claims that took tasks per second, over the repetitions that timed the library's claims; null where none did. */
    public Range claimsPerSecond() {
        return Range.overPresent(samples, s -> s.claims() == null || s.seconds() <= 0 ? null
                : s.claims().claims() / s.seconds());
    }

    /**
     * The latency at {@code percent} (50 or 99) of the messages stamped in each repetition's window, followed past its
     * end, the owed ranked above every delivered one ({@link CohortLatency}); null where no repetition followed them.
     */
    public Range cohortMs(int percent) {
        return Range.preciseOverPresent(samples, s -> !followed(s) ? null
                : percent == 50 ? s.cohortLatencyMs().p50() : s.cohortLatencyMs().p99());
    }

    /** The share of the window's messages still owed when the cohort was last looked at, in %; null as above. */
    public Range owedPercent() {
        return Range.overPresent(samples, s -> !followed(s) ? null
                : 100.0 * s.cohortLatencyMs().unfinished() / s.cohortLatencyMs().deliveries());
    }

    private static boolean followed(Sample sample) {
        return sample.cohortLatencyMs() != null && sample.cohortLatencyMs().measured();
    }

    /** The repetition the stability check and the time-series charts come from. */
    public Sample median() {
        return samples.get(medianRepetition - 1);
    }
}
