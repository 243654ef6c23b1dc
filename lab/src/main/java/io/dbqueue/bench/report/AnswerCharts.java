package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/** The answer's two charts per shape, as broker benchmarks draw them: p99 and delivered rate against offered rate. */
final class AnswerCharts {

    private AnswerCharts() {
    }

    static ChartImage p99(AnswerResults results, AnswerShape shape) throws IOException {
        XYChart chart = Charts.xy("p99 against offered rate, " + shape.title() + runs(results),
                "offered messages/s", "p99 ms");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        lines(chart, results, shape, s -> s.p99Ms() == null ? null : Math.max(0.1, s.p99Ms().median()));
        return Charts.render(chart, "answer-p99-" + shape.slug(), "p99 against offered rate, " + shape.title());
    }

    static ChartImage delivered(AnswerResults results, AnswerShape shape) throws IOException {
        XYChart chart = Charts.xy("Delivered against offered rate, " + shape.title() + runs(results),
                "offered messages/s", "delivered messages/s per group");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        lines(chart, results, shape, s -> Math.max(1, s.delivered().median()));
        return Charts.render(chart, "answer-delivered-" + shape.slug(), "Delivered against offered rate, "
                + shape.title());
    }

    /** What a point of the charts is: " (one run)" or " (median of runs)". */
    private static String runs(AnswerResults results) {
        return results.repeat() <= 1 ? " (one run)" : " (median of runs)";
    }

    private static void lines(XYChart chart, AnswerResults results, AnswerShape shape,
                              Function<RateStep, Double> value) {
        for (AnswerSystem system : shape.systems()) {
            Sweep sweep = results.sweep(system, shape.messageSize(), shape.batchSize());
            if (sweep == null) {
                continue;
            }
            List<RateStep> steps = sweep.steps().stream().filter(s -> value.apply(s) != null).toList();
            if (!steps.isEmpty()) {
                chart.addSeries(system.label(), steps.stream().map(RateStep::offered).toList(),
                        steps.stream().map(value).toList());
            }
        }
    }
}
