package io.dbqueue.bench.answer;

import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** Turns an offered rate's repetitions into a {@link RateStep}: every figure per repetition first, then their median. */
final class RateSteps {

    private RateSteps() {
    }

    static RateStep of(int offered, int groups, List<Sample> samples) {
        return new RateStep(offered, samples.size(),
                Range.overPresent(samples, s -> s.processedPerSecond() / groups),
                Range.overPresent(samples, Sample::enqueuedPerSecond),
                Range.preciseOverPresent(samples, s -> latency(s, CohortLatency::p50, LatencySummary::p50)),
                Range.preciseOverPresent(samples, s -> latency(s, CohortLatency::p99, LatencySummary::p99)),
                Range.overPresent(samples, RateSteps::serverCpuUs),
                Range.overPresent(samples, RateSteps::writtenBytes),
                Range.overPresent(samples, RateSteps::clientCpuUs),
                Range.preciseOverPresent(samples, RateSteps::owedPercent));
    }

    /**
     * A repetition's latency figure: over the messages sent in its window, followed past its end, where the lab
     * followed them; otherwise over what the window delivered. Null when none was measured.
     */
    private static Double latency(Sample s, ToDoubleFunction<CohortLatency> followed,
                                  ToDoubleFunction<LatencySummary> delivered) {
        if (s.cohortLatencyMs() != null) {
            return followed.applyAsDouble(s.cohortLatencyMs());
        }
        return s.latencyMs().measured() ? delivered.applyAsDouble(s.latencyMs()) : null;
    }

    private static Double owedPercent(Sample s) {
        CohortLatency cohort = s.cohortLatencyMs();
        // rounded up to the thousandth Range keeps: 16,001 owed of 1.6 million is over 1 %, not 1.000 %
        return cohort == null ? null : Math.ceil(100_000.0 * cohort.unfinished() / cohort.deliveries()) / 1000;
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
            return s.broker().writeBytes() == null ? null : perSent(s, s.broker().writeBytes());
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
