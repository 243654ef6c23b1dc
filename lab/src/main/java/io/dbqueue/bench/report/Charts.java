package io.dbqueue.bench.report;

import io.dbqueue.bench.metrics.LatencyBucket;
import io.dbqueue.bench.metrics.SecondSample;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Sample;
import io.dbqueue.bench.scenario.ScenarioCell;
import io.dbqueue.bench.scenario.ScenarioSummary;
import io.dbqueue.bench.workload.DriverName;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts: the experiment's two per cell (throughput over time, latency per bucket of
 * accumulated messages), drawn from one repetition, the one with the median processed/s, which their
 * titles name, and per driver a bar chart of
 * layouts x batch sizes with the min and max of each bar; for {@code bench scenario},
 * a bar chart of pickup latency per mode.
 */
final class Charts {

    private static final int WIDTH = 800;
    private static final int HEIGHT = 400;

    private Charts() {
    }

    /**
     * Draws a throw-away chart. Java2D registers shutdown hooks when it first draws text; once the
     * JVM is shutting down (Ctrl-C) that fails, so the report could not be drawn any more.
     */
    static void loadGraphics() throws IOException {
        render(xy("", "", ""), "none", "");
    }

    /**
     * Per driver, a bar per cell at its median processed/s, with markers at its slowest and fastest
     * repetitions. XChart's error bars are symmetric, so they would put one end past the real min or max.
     */
    static List<ChartImage> matrix(List<CellResult> runs) throws IOException {
        List<ChartImage> charts = new ArrayList<>();
        boolean sweep = ClientMatrix.sweeps(runs);
        for (DriverName driver : runs.stream().map(CellResult::driver).distinct().toList()) {
            List<RangeBar> bars = RangeBar.of(runs.stream().filter(r -> r.driver() == driver).toList(),
                    c -> c.layout() + " b" + c.batchSize() + (sweep ? " " + c.producers() + "x" + c.consumers() : ""));
            CategoryChart chart = new CategoryChartBuilder().width(WIDTH + 200).height(HEIGHT + 100)
                    .title("processed/s by layout and batch size (" + driver + "): bar the median, markers min and max")
                    .xAxisTitle(sweep ? "layout, batch size, producers x consumers" : "layout, batch size")
                    .yAxisTitle("messages/s").build();
            chart.getStyler().setXAxisLabelRotation(30);
            chart.getStyler().setOverlapped(true); // the markers over their bar, not beside it
            List<String> categories = bars.stream().map(RangeBar::category).toList();
            chart.addSeries("median", categories, bars.stream().map(b -> (Number) b.median()).toList());
            marker(chart, "min", categories, bars.stream().map(b -> (Number) b.min()).toList());
            marker(chart, "max", categories, bars.stream().map(b -> (Number) b.max()).toList());
            charts.add(render(chart, "matrix-" + driver, "Layouts x batch sizes, " + driver));
        }
        return charts;
    }

    private static void marker(CategoryChart chart, String name, List<String> categories, List<Number> values) {
        chart.addSeries(name, categories, values)
                .setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
    }

    static ChartImage throughput(CellResult cell) throws IOException {
        Sample sample = cell.median();
        XYChart chart = xy("Throughput over time: " + title(cell) + repetition(cell), "second", "messages/s");
        chart.getStyler().setYAxisMin(0.0);
        List<SecondSample> series = sample.series();
        List<Double> x = series.stream().map(SecondSample::second).toList();
        chart.addSeries("processed/s", x, perSecond(series, SecondSample::processed));
        chart.addSeries("enqueued/s", x, perSecond(series, SecondSample::enqueued));
        return render(chart, "throughput-" + slug(cell), "Throughput over time, " + title(cell) + repetition(cell));
    }

    static ChartImage latency(CellResult cell) throws IOException {
        List<LatencyBucket> buckets = cell.median().latencyBuckets();
        XYChart chart = xy("Latency per accumulated messages: " + title(cell) + repetition(cell),
                "messages processed", "ms");
        List<Long> x = buckets.stream().map(LatencyBucket::upTo).toList();
        addLine(chart, "min", x, buckets, LatencyBucket::min);
        addLine(chart, "avg", x, buckets, LatencyBucket::avg);
        addLine(chart, "p95", x, buckets, LatencyBucket::p95);
        addLine(chart, "p99", x, buckets, LatencyBucket::p99);
        addLine(chart, "max", x, buckets, LatencyBucket::max);
        return render(chart, "latency-" + slug(cell), "Latency per accumulated messages, " + title(cell)
                + repetition(cell));
    }

    /** Pickup latency p50, p95 and p99 per cell of a scenario, modes side by side. */
    static ChartImage pickup(ScenarioSummary summary) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Pickup latency: " + summary.scenario().name() + " (median of runs)")
                .xAxisTitle("mode").yAxisTitle("ms").build();
        chart.getStyler().setXAxisLabelRotation(summary.cells().size() > 4 ? 20 : 0);
        List<String> labels = summary.cells().stream().map(ScenarioCell::label).toList();
        chart.addSeries("p50", labels, summary.cells().stream().map(c -> (Number) c.of(r -> r.pickup().p50()).median()).toList());
        chart.addSeries("p95", labels, summary.cells().stream().map(c -> (Number) c.pickupP95().median()).toList());
        chart.addSeries("p99", labels, summary.cells().stream().map(c -> (Number) c.pickupP99().median()).toList());
        return render(chart, "pickup-" + summary.scenario().name(), "Pickup latency, " + summary.scenario().name());
    }

    static XYChart xy(String title, String xAxis, String yAxis) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis)
                .yAxisTitle(yAxis).build();
        chart.getStyler().setMarkerSize(3);
        return chart;
    }

    private static void addLine(XYChart chart, String name, List<Long> x, List<LatencyBucket> buckets,
                                ToDoubleFunction<LatencyBucket> value) {
        if (!x.isEmpty()) {
            chart.addSeries(name, x, buckets.stream().map(b -> value.applyAsDouble(b)).toList());
        }
    }

    /** Counts per sample divided by the sample's length (the last sample may be shorter than a second). */
    private static List<Double> perSecond(List<SecondSample> series, ToDoubleFunction<SecondSample> count) {
        List<Double> rates = new ArrayList<>();
        double previous = 0;
        for (SecondSample s : series) {
            double length = Math.max(0.001, s.second() - previous);
            rates.add(count.applyAsDouble(s) / length);
            previous = s.second();
        }
        return rates;
    }

    static ChartImage render(Chart<?, ?> chart, String name, String title)
            throws IOException {
        byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        return new ChartImage(title, "charts/" + name + ".png", png);
    }

    private static String title(CellResult cell) {
        return cell.driver() + ", " + cell.layout() + ", batch " + cell.batchSize() + ", " + cell.producers()
                + " producers x " + cell.consumers() + " consumers";
    }

    /** Which repetition a chart of one repetition shows: " (repetition 2 of 3, median processed/s)". */
    static String repetition(CellResult cell) {
        return cell.repetitions() <= 1 ? "" : " (repetition " + cell.medianRepetition() + " of " + cell.repetitions()
                + ", median processed/s)";
    }

    private static String slug(CellResult cell) {
        return cell.driver() + "-" + cell.layout() + "-b" + cell.batchSize() + "-p" + cell.producers() + "-c"
                + cell.consumers();
    }
}
