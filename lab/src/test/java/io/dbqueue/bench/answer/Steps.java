package io.dbqueue.bench.answer;

import io.dbqueue.bench.run.Range;

import java.util.List;

/** Builds rate steps and sweeps for the answer's unit tests. */
final class Steps {

    private Steps() {
    }

    /** A step at {@code offered} that delivered {@code delivered} per second with the given p99. */
    static RateStep step(int offered, double delivered, double p99) {
        return new RateStep(offered, 3, Range.of(List.of(delivered)), Range.of(List.of((double) offered)),
                Range.of(List.of(p99 / 2)), Range.of(List.of(p99)), Range.of(List.of(20.0)),
                Range.of(List.of(1500.0)), Range.of(List.of(30.0)));
    }

    static RateStep kept(int offered, double p99) {
        return step(offered, offered, p99);
    }

    static Sweep sweep(AnswerSystem system, AnswerShape shape, RateStep... steps) {
        return new Sweep(system, shape, List.of(steps), null);
    }

    static AnswerShape shape(List<AnswerSystem> systems) {
        return new AnswerShape(1024, 100, systems, List.of(1_000, 2_000, 5_000, 10_000));
    }
}
