package io.dbqueue.bench.answer;

import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/** Turns an offered rate's repetitions into a {@link RateStep}: every figure per repetition first, then their median. */
final class RateSteps {

    private RateSteps() {
    }

    static RateStep of(int offered, int groups, List<Sample> samples) {
        return new RateStep(offered, samples.size(),
                range(samples, s -> s.processedPerSecond() / groups),
                range(samples, Sample::enqueuedPerSecond),
                range(samples, s -> s.latencyMs().measured() ? s.latencyMs().p50() : null),
                range(samples, s -> s.latencyMs().measured() ? s.latencyMs().p99() : null),
                range(samples, RateSteps::serverCpuUs),
                range(samples, RateSteps::writtenBytes),
                range(samples, RateSteps::clientCpuUs));
    }

    /** The median and range of a figure over the repetitions that have it; null when none has. */
    private static Range range(List<Sample> samples, Function<Sample, Double> figure) {
        List<Double> values = samples.stream().map(figure).filter(Objects::nonNull).toList();
        return values.isEmpty() ? null : Range.of(values);
    }

    private static Double serverCpuUs(Sample s) {
        ServerStats server = s.server();
        return server == null || server.postgresCpuSeconds() == null || s.enqueued() == 0 ? null
                : server.postgresCpuSeconds() * 1e6 / s.enqueued();
    }

    private static Double writtenBytes(Sample s) {
        ServerStats server = s.server();
        return server == null || s.enqueued() == 0 ? null : (double) server.walBytes() / s.enqueued();
    }

    private static Double clientCpuUs(Sample s) {
        ClientStats client = s.client();
        return client == null || s.enqueued() == 0 ? null : client.cpuPercent() / 100 * s.seconds() * 1e6 / s.enqueued();
    }
}
