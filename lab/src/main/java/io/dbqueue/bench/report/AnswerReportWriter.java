package io.dbqueue.bench.report;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.answer.AnswerPlan;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerRunner;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.environment.EnvironmentProbe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes an answer run's directory: results.json, report.md, report.html and two charts per shape. */
public final class AnswerReportWriter {

    private AnswerReportWriter() {
    }

    /** results.json and the report of a run just made, by the code that made it. */
    public static void write(Path dir, AnswerResults results) throws IOException {
        Files.createDirectories(dir);
        ReportWriter.JSON.writeValue(dir.resolve("results.json").toFile(), results);
        render(dir, results, results.environment().gitCommit());
    }

    /** The report of an earlier run's results.json, by the code checked out now ({@code bench report}). */
    public static void render(Path dir, AnswerResults results) throws IOException {
        render(dir, results, EnvironmentProbe.headCommit(ProjectDir.get()));
    }

    /** How the run's ceilings were measured, and what lies between them and the queue. */
    static String ceilingMethod(AnswerResults results) {
        CeilingWords words = CeilingWords.of(results.ceilings().get(0));
        return String.format(Locale.ROOT, "The ceiling is PostgreSQL's own client, pgbench, running %s: one pgbench"
                + " process of %d clients enqueueing (%d for a batch of 1), one of %d claiming up to %d at a time, flat"
                + " out, each repetition on a fresh table, its producers held back past %,d waiting. Its messages are"
                + " counted from the table. Between it and the queue lie what the library adds: %sJDBC, the JVM, its"
                + " bookkeeping and its wakeups.", words.method, results.producersBatched(), results.producersSingle(),
                results.consumers(), results.consumerBatch(), AnswerRunner.CEILING_BACKLOG, words.adds);
    }

    /** The brokers measured, as each named itself when the run reached it. */
    private static void brokers(Document doc, AnswerResults results) {
        if (results.servers() == null) {
            doc.paragraph("The brokers' versions are not recorded: this run predates their record.");
            return;
        }
        if (results.servers().isEmpty()) {
            return;
        }
        doc.paragraph("The brokers measured, as each named itself:");
        doc.table(List.of("system", "server"), results.servers().entrySet().stream()
                .map(e -> List.of(AnswerSystem.byId(e.getKey()).label(), e.getValue())).toList());
    }

    /** Whether {@code dir} holds the results.json of a {@code bench answer} run. */
    public static boolean isAnswer(Path dir) {
        Path file = dir.resolve("results.json");
        return Files.isRegularFile(file) && AnswerResults.KIND.equals(
                ReportWriter.JSON.readTree(file.toFile()).path("kind").asString(""));
    }

    public static AnswerResults read(Path dir) {
        return ReportWriter.JSON.readValue(dir.resolve("results.json").toFile(), AnswerResults.class);
    }

    /** Whether the run followed each window's messages past its end (runs before it measured what was delivered). */
    private static boolean followed(AnswerResults results) {
        return results.sweeps().stream().flatMap(s -> s.steps().stream()).anyMatch(s -> s.owedPercent() != null);
    }

    /**
     * report.md, report.html and the charts, from the results alone, written by the code at commit {@code writer}:
     * a report written by other code than the run's says so.
     */
    private static void render(Path dir, AnswerResults results, String writer) throws IOException {
        Files.createDirectories(dir.resolve("charts"));
        Document doc = ReportDocument.opening("db-queue bench: how far PostgreSQL carries a queue",
                results.environment());
        boolean once = results.repeat() <= 1;
        if (!writer.equals(results.environment().gitCommit())) {
            doc.paragraph("Written from results.json by bench report at commit " + writer + "; the run's own code was"
                    + " at " + results.environment().gitCommit() + " (the environment block). The figures are the"
                    + " run's; the words and charts are the later code's.");
        }
        if (once) {
            doc.paragraph("A first look, not the answer: every rate ran once, so one slow window decides a capacity."
                    + " Run ./bench answer without --quick for the answer.");
        }
        doc.paragraph(String.format(Locale.ROOT, "Started %s. An open-loop sweep of offered rates per system: producers"
                        + " send at a fixed rate whatever the system does, each message stamped when it was due;"
                        + " every rate runs %s (%.0f s warm-up, %.0f s measured) and a system's sweep stops at"
                        + " the first rate it does not keep up (sent or delivered under %.0f %% of offered%s) or whose"
                        + " p99 passes %d ms. Capacity at a target is the highest rate up to which every rate was kept"
                        + " up with p99 at or under it: the real figure lies between it and the next rate offered.%s%s",
                results.startedAt(), once ? "once" : results.repeat() + " times", results.warmupSeconds(),
                results.windowSeconds(), 100 * AnswerPlan.KEPT_UP, followed(results) ? String.format(Locale.ROOT,
                        ", or over %.0f %% of its deliveries still owed a second after its window",
                        AnswerPlan.OWED_PERCENT) : "",
                results.targetsMs().stream().mapToInt(i -> i).max().orElse(0),
                once ? "" : " Figures are medians over the runs of each run's own figure.",
                results.interrupted() ? " Interrupted: partial results." : ""));
        doc.heading(2, "The answer");
        Decision.of(results).forEach(doc::paragraph);
        doc.paragraph("Messages per second each system holds:");
        AnswerTable.summary(doc, results);
        List<ChartImage> charts = new ArrayList<>();
        for (AnswerShape shape : results.shapes()) {
            doc.heading(2, shape.title());
            doc.paragraph("Rates offered, messages per second: " + String.join(", ",
                    shape.rates().stream().map(AnswerFigures::number).toList()) + ".");
            AnswerTable.shape(doc, results, shape);
            ChartImage p99 = AnswerCharts.p99(results, shape);
            ChartImage delivered = AnswerCharts.delivered(results, shape);
            charts.add(p99);
            charts.add(delivered);
            doc.image(p99).image(delivered);
            doc.paragraph(once ? "Every rate, one run each:" : "Every rate, median over the runs (min-max for p99):");
            AnswerTable.steps(doc, results, shape);
        }
        doc.heading(2, "How it was measured");
        doc.paragraph(String.format(Locale.ROOT, "Every system gets the same load: %d producer threads sending"
                        + " batches (%d for a batch of 1, as each waits for its acknowledgement), %d consumer threads"
                        + " (per group, for a topic of 4 partitions) taking up to %d messages at a time (the queue's"
                        + " claim, RabbitMQ's prefetch, NATS's pull, the log's and Kafka's read). The queue runs on"
                        + " the %s layout with adaptive wakeups (NOTIFY while idle, polling while saturated).",
                results.producersBatched(), results.producersSingle(), results.consumers(), results.consumerBatch(),
                results.layout()));
        doc.paragraph("Latency runs from the moment a message was due to be sent (so a send held up by a slow one"
                + " before it counts its wait) to where each table's setup column says."
                + (followed(results) ? String.format(Locale.ROOT, " It covers every message due in the window,"
                + " followed past its end: a delivery still owed a second later counts as slower than every target"
                + " and every delivered message (where over 1 %% were owed, the p99 in the tables is that lower"
                + " bound). With batches of 100 at 1,000 messages/s a window holds %.0f batches, so its p99 is"
                + " close to its slowest batch.", 1_000 * results.windowSeconds() / 100) : "")
                + " Server CPU is PostgreSQL's"
                + " processes or the broker's process; written is PostgreSQL's WAL or the bytes the broker's process"
                + " wrote to storage (/proc/PID/io); all per message sent, compared at the highest rate every system"
                + " of the shape kept up.");
        if (results.ceilings() != null && !results.ceilings().isEmpty()) {
            doc.paragraph(ceilingMethod(results));
        }
        if (!once) {
            doc.heading(2, "Repetitions");
            doc.paragraph("Repetitions of one rate within 15 % of their median: delivered rate "
                    + AnswerFigures.within(results.sweeps(), RateStep::delivered, 15) + " rates, p99 "
                    + AnswerFigures.within(results.sweeps(), RateStep::p99Ms, 15) + " rates (run more than once)."
                    + String.format(Locale.ROOT, " A p99 over a window of %.0f s", results.windowSeconds())
                    + " rests on its few slowest messages, and on two shared"
                    + " cores one scheduling hiccup or a slow WAL flush moves it; the tables give its min-max, so that"
                    + " a capacity near a target can be read with its spread.");
        }
        ReportDocument.environment(doc, results.environment());
        brokers(doc, results);
        for (ChartImage chart : charts) {
            Files.write(dir.resolve(chart.path()), chart.png());
        }
        Files.writeString(dir.resolve("report.md"), MarkdownRenderer.render(doc));
        Files.writeString(dir.resolve("report.html"), HtmlRenderer.render("db-queue bench: the answer", doc));
    }
}
