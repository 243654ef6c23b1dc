package io.dbqueue.bench.answer;

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

    /** The server's CPU per message sent: PostgreSQL's processes, or the broker's process. */
    private static Double serverCpuUs(Sample s) {
        Double seconds = s.broker() != null ? Double.valueOf(s.broker().cpuSeconds())
                : s.server() == null ? null : s.server().postgresCpuSeconds();
        return seconds == null ? null : perSent(s, seconds * 1e6);
    }

    /** What the server wrote per message sent: PostgreSQL's WAL, or the broker's bytes written to storage. */
    private static Double writtenBytes(Sample s) {
        if (s.broker() != null) {
            return perSent(s, s.broker().writeBytes());
        }
        return s.server() == null ? null : perSent(s, s.server().walBytes());
    }

    private static Double clientCpuUs(Sample s) {
        return s.client() == null ? null : perSent(s, s.client().cpuSeconds() * 1e6);
    }

    private static Double perSent(Sample s, double total) {
        return s.enqueued() == 0 ? null : total / s.enqueued();
    }
}
