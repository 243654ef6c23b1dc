package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.NotMeasured;
import io.dbqueue.bench.run.Stability;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lays out report.md and report.html: environment, workload, the comparison tables, charts, and the verdict last. */
final class ReportDocument {

    private ReportDocument() {
    }

    static Document of(Results results, List<ChartImage> matrixCharts, List<ChartImage> cellCharts) {
        Document doc = new Document();
        doc.heading(1, "db-queue bench: " + results.workload().get("name"));
        doc.paragraph("Started " + results.startedAt() + ", finished " + results.finishedAt() + "."
                + (results.interrupted() ? " Interrupted (Ctrl-C): only what was measured until then is here." : ""));
        environment(doc, results.environment());
        doc.heading(2, "Workload");
        doc.table(List.of("setting", "value"), results.workload().entrySet().stream()
                .map(e -> List.of(e.getKey(), String.valueOf(e.getValue()))).toList());
        comparison(doc, results.comparison());
        ceiling(doc, results.runs());
        serverAndClient(doc, results.runs());
        stability(doc, results.runs());
        notMeasured(doc, results.skipped());
        doc.heading(2, "Charts");
        matrixCharts.forEach(doc::image);
        cellCharts.forEach(doc::image);
        doc.heading(2, "Verdict");
        results.verdict().text().forEach(doc::paragraph);
        return doc;
    }

    static void environment(Document doc, Environment env) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("CPU", env.cpu().model() + ", " + env.cpu().cores() + " cores"));
        rows.add(List.of("memory", String.format(Locale.ROOT, "%.1f GiB", env.memoryBytes() / 1073741824.0)));
        rows.add(List.of("OS", env.os().distribution() + " (" + env.os().name() + " " + env.os().version() + ", "
                + env.os().arch() + ")"));
        rows.add(List.of("JDK", env.jdk().version() + " " + env.jdk().vendor() + " " + env.jdk().vm()));
        rows.add(List.of("PostgreSQL", env.postgres().version() + (env.postgres().embedded() ? " (embedded)"
                : " (external, " + env.postgres().jdbcUrl() + ")")));
        env.postgres().settings().forEach((k, v) -> rows.add(List.of(k, v)));
        rows.add(List.of("git commit", env.gitCommit() + (Boolean.TRUE.equals(env.gitDirty()) ? " (with local changes)"
                : "")));
        doc.heading(2, "Environment");
        doc.table(List.of("what", "value"), rows);
    }

    private static void comparison(Document doc, List<ComparisonRow> rows) {
        for (String driver : rows.stream().map(ComparisonRow::driver).distinct().toList()) {
            doc.heading(2, "Comparison: " + driver);
            List<ComparisonRow> mine = rows.stream().filter(r -> r.driver().equals(driver)).toList();
            doc.paragraph("Messages processed per second, median of the repetitions; delta against the baseline "
                    + mine.get(0).baseline() + "; latency end to end (enqueue to finish committed) of the median"
                    + " repetition; spread = (max - min) / median.");
            doc.table(List.of("configuration", "batch", "RPS", "delta", "delta %", "p50 ms", "p95 ms", "p99 ms",
                            "min-max", "spread %"),
                    mine.stream().map(r -> List.of(r.layout(), Integer.toString(r.batchSize()), n(r.rps()),
                            n(r.delta()), f(r.deltaPct()), f(r.p50Ms()), f(r.p95Ms()), f(r.p99Ms()),
                            n(r.rpsMin()) + "-" + n(r.rpsMax()), f(r.spreadPct()))).toList());
        }
    }

    private static void ceiling(Document doc, List<CellResult> runs) {
        List<List<String>> rows = new ArrayList<>();
        for (CellResult library : runs) {
            if (!library.driver().equals(Verdict.LIBRARY)) {
                continue;
            }
            runs.stream().filter(r -> r.driver().equals(Verdict.CEILING) && r.layout().equals(library.layout())
                    && r.batchSize() == library.batchSize()).findFirst().ifPresent(raw -> rows.add(List.of(
                    library.layout(), Integer.toString(library.batchSize()), n(library.throughput().median()),
                    n(raw.throughput().median()),
                    f(100 * library.throughput().median() / Math.max(1, raw.throughput().median())))));
        }
        if (!rows.isEmpty()) {
            doc.heading(2, "The library against the raw-SQL ceiling");
            doc.table(List.of("layout", "batch", "direct RPS", "raw-sql RPS", "direct / raw-sql %"), rows);
        }
    }

    private static void serverAndClient(Document doc, List<CellResult> runs) {
        doc.heading(2, "Server and client");
        doc.paragraph("From the median repetition. WAL per message processed; CPU in percent of one core; table, index"
                + " and dead tuples after the window; autovacuum runs during it.");
        doc.table(List.of("cell", "WAL B/msg", "PG CPU %", "table MB", "index MB", "dead tuples", "autovacuums",
                "client CPU %", "threads", "RSS MB", "connections"), runs.stream()
                .filter(r -> r.server() != null && r.client() != null).map(r -> {
            ServerStats s = r.server();
            ClientStats c = r.client();
            return List.of(r.driver() + " " + Verdict.name(r), f(s.walBytesPerMessage()),
                    s.postgresCpuPercent() == null ? "n/a" : f(s.postgresCpuPercent()), mb(s.tableBytes()),
                    mb(s.indexBytes()), Long.toString(s.deadTuples()), Long.toString(s.autovacuumRuns()),
                    f(c.cpuPercent()), Integer.toString(c.threads()), mb(c.rssBytes()),
                    Integer.toString(c.connections()));
        }).toList());
    }

    private static void stability(Document doc, List<CellResult> runs) {
        List<List<String>> rows = runs.stream().filter(r -> r.stability() != null).map(r -> List.of(
                r.driver() + " " + Verdict.name(r), n(r.stability().firstMinute()),
                r.stability().perMinute().stream().map(ReportDocument::n).toList().toString(),
                f(r.stability().maxDeviationPct()), r.stability().withinTenPct() ? "yes" : "no")).toList();
        if (!rows.isEmpty()) {
            doc.heading(2, "Stability");
            doc.table(List.of("cell", "first minute /s", "per minute /s", "max deviation %", "within 10 %"), rows);
            runs.stream().filter(r -> r.stability() != null && !r.median().serverMinutes().isEmpty())
                    .forEach(r -> minutes(doc, r));
        }
    }

    private static void minutes(Document doc, CellResult run) {
        doc.heading(3, run.driver() + " " + Verdict.name(run) + " minute by minute");
        doc.paragraph("Checkpoints started, WAL written, WAL flushes (fsync) and their mean time, and autovacuum runs"
                + " on the queue table during each minute; dead tuples, table and index size at its end. Every durable"
                + " commit waits for a WAL flush: when the flush time rises, the commit rate falls.");
        Stability stability = run.stability();
        List<ServerMinute> server = run.median().serverMinutes();
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < Math.min(stability.perMinute().size(), server.size()); i++) {
            double rate = stability.perMinute().get(i);
            ServerMinute m = server.get(i);
            rows.add(List.of(Integer.toString(m.minute()), n(rate),
                    f(100 * (rate - stability.firstMinute()) / stability.firstMinute()),
                    Long.toString(m.checkpoints()), f(m.walMegabytes()), Long.toString(m.walSyncs()),
                    m.walSyncMs() == null ? "-" : f(m.walSyncMs()), Long.toString(m.autovacuumRuns()),
                    Long.toString(m.deadTuples()), f(m.tableMegabytes()), f(m.indexMegabytes())));
        }
        doc.table(List.of("minute", "processed /s", "vs first %", "checkpoints", "WAL MB", "WAL flushes",
                "flush ms", "autovacuums", "dead tuples", "table MB", "index MB"), rows);
    }

    private static void notMeasured(Document doc, List<NotMeasured> skipped) {
        if (!skipped.isEmpty()) {
            doc.heading(2, "Not measured");
            doc.table(List.of("driver", "layout", "batch", "status", "reason"), skipped.stream().map(s -> List.of(
                    s.driver(), s.layout(), Integer.toString(s.batchSize()), s.status(), s.reason())).toList());
        }
    }

    private static String n(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
    }
}
