package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerPlan;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.driver.LatencyEnd;
import io.dbqueue.bench.run.Range;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The answer's tables: per shape, each system's capacity at every target, its saturation point and
 * its costs per message; and the one summary table the README and the performance page show,
 * generated from a committed run by {@code bench docs}.
 */
public final class AnswerTable {

    /** How the tables name the ceiling's row. */
    static String label(Ceiling ceiling) {
        return "ceiling: PostgreSQL's own pgbench, " + CeilingWords.of(ceiling).ran;
    }

    private AnswerTable() {
    }

    /** The summary table as Markdown, as the README shows it. */
    public static String summaryMarkdown(AnswerResults results) {
        Document doc = new Document();
        summary(doc, results);
        return MarkdownRenderer.render(doc).strip();
    }

    /** The summary table: every system of the run, its capacities in every shape at the headline target. */
    static void summary(Document doc, AnswerResults results) {
        int target = AnswerPlan.HEADLINE_TARGET_MS;
        List<AnswerShape> shapes = results.shapes();
        if (shapes.isEmpty()) {
            doc.paragraph("Nothing was measured.");
            return;
        }
        AnswerShape headline = shapes.get(0);
        int common = AnswerFigures.commonRate(results, headline);
        List<String> header = new ArrayList<>(List.of("system"));
        shapes.forEach(s -> header.add(s.title() + ", p99 ≤ " + target + " ms"));
        header.add("saturation, " + headline.title());
        header.add("server CPU, written per message at " + AnswerFigures.number(common) + "/s");
        List<List<String>> rows = new ArrayList<>();
        for (AnswerSystem system : systems(results)) {
            List<String> row = new ArrayList<>(List.of(system.label()));
            shapes.forEach(s -> row.add(AnswerFigures.capacity(results.sweep(system, s.messageSize(), s.batchSize()),
                    target)));
            Sweep sweep = results.sweep(system, headline.messageSize(), headline.batchSize());
            row.add(AnswerFigures.saturation(sweep));
            row.add(costs(sweep == null ? null : sweep.keptUpAt(common)));
            rows.add(row);
        }
        Ceiling ceiling = results.ceiling(headline);
        if (ceiling != null) {
            List<String> row = new ArrayList<>(List.of(label(ceiling)));
            shapes.forEach(s -> row.add("-"));
            row.add(ceiling(ceiling));
            row.add("-");
            rows.add(row);
        }
        doc.table(header, rows);
    }

    /** The ceiling's delivered rate, or whether it was skipped or failed. */
    static String ceiling(Ceiling ceiling) {
        if (ceiling.measured()) {
            return AnswerFigures.number(ceiling.delivered());
        }
        return ceiling.note().startsWith("skipped") ? "skipped" : ceiling.note().startsWith("failed") ? "failed"
                : "-";
    }

    /** One shape's table: capacity at each target, saturation, costs at the shape's common rate. */
    static void shape(Document doc, AnswerResults results, AnswerShape shape) {
        int common = AnswerFigures.commonRate(results, shape);
        String at = " at " + AnswerFigures.number(common) + "/s";
        List<String> header = new ArrayList<>(List.of("system"));
        results.targetsMs().forEach(t -> header.add("p99 ≤ " + t + " ms"));
        header.addAll(List.of("saturation", "server CPU per message" + at, "written per message" + at,
                "client CPU per message" + at, "setup"));
        List<List<String>> rows = new ArrayList<>();
        for (AnswerSystem system : shape.systems()) {
            Sweep sweep = results.sweep(system, shape.messageSize(), shape.batchSize());
            List<String> row = new ArrayList<>(List.of(system.label()));
            results.targetsMs().forEach(t -> row.add(AnswerFigures.capacity(sweep, t)));
            RateStep step = sweep == null ? null : sweep.keptUpAt(common);
            row.add(AnswerFigures.saturation(sweep));
            row.add(step == null || step.serverCpuUs() == null ? "-" : micros(step.serverCpuUs().median()));
            row.add(step == null || step.writtenBytes() == null ? "-" : bytes(step.writtenBytes().median()));
            row.add(step == null || step.clientCpuUs() == null ? "-" : micros(step.clientCpuUs().median()));
            String setup = system.setup() + "; latency: " + LatencyEnd.of(system.driver());
            row.add(sweep != null && sweep.note() != null ? setup + "; " + sweep.note() : setup);
            rows.add(row);
        }
        Ceiling ceiling = results.ceiling(shape);
        if (ceiling != null) {
            List<String> row = new ArrayList<>(List.of(label(ceiling)));
            results.targetsMs().forEach(t -> row.add("-"));
            row.add(ceiling(ceiling));
            row.addAll(List.of("-", "-", "-"));
            CeilingWords words = CeilingWords.of(ceiling);
            String setup = "pgbench runs " + words.setup + " with the same " + words.same + ", flat out; no latency"
                    + " (its payloads carry no time)";
            row.add(ceiling.note() == null ? setup : setup + "; " + ceiling.note());
            rows.add(row);
        }
        doc.table(header, rows);
    }

    /** Every offered rate of the shape: delivered and p99 per system, median (min-max). */
    static void steps(Document doc, AnswerResults results, AnswerShape shape) {
        List<String> header = new ArrayList<>(List.of("system", "offered/s", "sent/s", "delivered/s", "p50 ms",
                "p99 ms (min-max)", "kept up"));
        List<List<String>> rows = new ArrayList<>();
        for (AnswerSystem system : shape.systems()) {
            Sweep sweep = results.sweep(system, shape.messageSize(), shape.batchSize());
            if (sweep == null) {
                continue;
            }
            for (RateStep step : sweep.steps()) {
                rows.add(List.of(system.label(), AnswerFigures.number(step.offered()),
                        AnswerFigures.number(step.sent().median()), AnswerFigures.number(step.delivered().median()),
                        ms(step.p50Ms() == null ? null : step.p50Ms().median()),
                        step.p99Ms() == null ? "-" : ms(step.p99Ms().median()) + (step.repetitions() <= 1 ? ""
                                : " (" + ms(step.p99Ms().min()) + "-" + ms(step.p99Ms().max()) + ")"),
                        keptUp(step)));
            }
        }
        Ceiling ceiling = results.ceiling(shape);
        if (ceiling != null && ceiling.measured()) {
            rows.add(List.of(label(ceiling), "flat out", AnswerFigures.number(ceiling.step().sent().median()),
                    AnswerFigures.number(ceiling.delivered()), "-", "-", "-"));
        }
        doc.table(header, rows);
    }

    /** "yes", or "no" with the share still undelivered a second after the window when that is why. */
    private static String keptUp(RateStep step) {
        if (step.keptUp()) {
            return "yes";
        }
        Range owed = step.owedPercent();
        return owed == null || owed.median() <= AnswerPlan.OWED_PERCENT ? "no"
                : String.format(Locale.ROOT, "no (%.1f %% owed 1 s after)", owed.median());
    }

    private static List<AnswerSystem> systems(AnswerResults results) {
        return results.sweeps().stream().map(Sweep::system).distinct().toList();
    }

    private static String costs(RateStep step) {
        if (step == null || step.serverCpuUs() == null) {
            return "-";
        }
        return micros(step.serverCpuUs().median()) + (step.writtenBytes() == null ? ""
                : ", " + bytes(step.writtenBytes().median()));
    }

    static String micros(double value) {
        return String.format(Locale.ROOT, "%,.0f µs", value);
    }

    static String bytes(double value) {
        return value >= 10_240 ? String.format(Locale.ROOT, "%.1f KiB", value / 1024)
                : String.format(Locale.ROOT, "%,.0f B", value);
    }

    private static String ms(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
