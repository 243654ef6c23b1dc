package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;

import io.dbqueue.bench.run.Range;

import java.util.Arrays;
import java.util.List;

/** Builds rate steps and sweeps for the answer's unit tests. */
public final class Steps {

    private Steps() {
    }

    /** A step at {@code offered} that delivered {@code delivered} per second with the given p99. */
    public static RateStep step(int offered, double delivered, double p99) {
        return new RateStep(offered, 3, Range.of(List.of(delivered)), Range.of(List.of((double) offered)),
                Range.of(List.of(p99 / 2)), Range.of(List.of(p99)), Range.of(List.of(20.0)),
                Range.of(List.of(1500.0)), Range.of(List.of(30.0)));
    }

    public static RateStep kept(int offered, double p99) {
        return step(offered, offered, p99);
    }

    /** A step kept up at {@code offered} whose three runs had these p99s. */
    public static RateStep keptWithRuns(int offered, double... p99s) {
        List<Double> runs = Arrays.stream(p99s).boxed().toList();
        return new RateStep(offered, runs.size(), Range.of(List.of((double) offered)), Range.of(List.of((double) offered)),
                Range.of(List.of(1.0)), Range.of(runs), Range.of(List.of(20.0)), Range.of(List.of(1500.0)),
                Range.of(List.of(30.0)));
    }

    public static Sweep sweep(AnswerSystem system, AnswerShape shape, RateStep... steps) {
        return new Sweep(system, shape, List.of(steps), null);
    }

    public static AnswerShape shape(List<AnswerSystem> systems) {
        return new AnswerShape(1024, 100, systems, List.of(1_000, 2_000, 5_000, 10_000));
    }

    /** A run of the full plan's settings with these sweeps. */
    public static AnswerResults results(Sweep... sweeps) {
        return new AnswerResults(AnswerResults.KIND, AnswerResults.SCHEMA_VERSION, "2026-11-26T00:00:00Z",
                "2026-11-26T00:30:00Z", false, "answer", "dbq_seq_pk", 3, 2, 3, 4, 16, 4, 100, List.of(10, 50, 200),
                null, null, List.of(sweeps), null);
    }

    /** A ceiling's step: 40,000 delivered (runs 38,000-41,000) flat out, nothing offered, no latency. */
    public static RateStep flatOut() {
        return new RateStep(0, 3, new Range(40_000, 38_000, 41_000), new Range(52_000, 50_000, 53_000), null, null,
                null, null, null);
    }

    /** {@code results} with these ceilings. */
    public static AnswerResults withCeilings(AnswerResults results, Ceiling... ceilings) {
        return new AnswerResults(results.kind(), results.schemaVersion(), results.startedAt(), results.finishedAt(),
                results.interrupted(), results.plan(), results.layout(), results.repeat(), results.warmupSeconds(),
                results.windowSeconds(), results.producersBatched(), results.producersSingle(), results.consumers(),
                results.consumerBatch(), results.targetsMs(), results.environment(), results.servers(),
                results.sweeps(), List.of(ceilings));
    }
}
