package io.dbqueue.bench.report;

import io.dbqueue.bench.driver.LatencyEnd;
import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.environment.StockSettings;
import io.dbqueue.bench.metrics.SecondSample;
import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.ClientRange;
import io.dbqueue.bench.run.LatencyRange;
import io.dbqueue.bench.run.NotMeasured;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.ServerRange;
import io.dbqueue.bench.run.Stability;
import io.dbqueue.bench.workload.DriverName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lays out report.md and report.html: environment, workload, the comparison tables, charts, and the verdict last. */
final class ReportDocument {

    private ReportDocument() {
    }

    static Document of(Results results, List<ChartImage> matrixCharts, List<ChartImage> cellCharts) {
        Document doc = opening("db-queue bench: " + results.workload().get("name"), results.environment());
        doc.paragraph("Started " + results.startedAt() + ", finished " + results.finishedAt() + "."
                + (results.interrupted() ? " Interrupted (Ctrl-C): only what was measured until then is here." : ""));
        environment(doc, results.environment());
        doc.heading(2, "Workload");
        doc.table(List.of("setting", "value"), results.workload().entrySet().stream()
                .map(e -> List.of(e.getKey(), String.valueOf(e.getValue()))).toList());
        boolean sweep = ClientMatrix.sweeps(results.runs());
        comparison(doc, results.comparison(), results.runs(), sweep);
        if (Results.paced(results.workload())) {
            cohort(doc, results.runs(), sweep);
        }
        ClientMatrix.add(doc, results.runs());
        ceiling(doc, results.runs(), sweep);
        serverAndClient(doc, results.runs(), sweep);
        writesAndReads(doc, results.runs(), results.workload().get("message_size"), sweep);
        claims(doc, results.runs(), sweep);
        ShardsSection.add(doc, results);
        stability(doc, results.runs(), sweep);
        notMeasured(doc, results.skipped());
        doc.heading(2, "Charts");
        matrixCharts.forEach(doc::image);
        cellCharts.forEach(doc::image);
        doc.heading(2, "Verdict");
        results.verdict().text().forEach(doc::paragraph);
        return doc;
    }

    /** The title, then whether the server was other than stock (durable) PostgreSQL: a reader must see that first. */
    static Document opening(String title, Environment env) {
        Document doc = new Document().heading(1, title);
        StockSettings.openingLines(env.postgres().nonDefaultSettings()).forEach(doc::paragraph);
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
        if (env.postgres().storage() != null) {
            rows.add(List.of("data directory", env.postgres().storage()));
        }
        env.postgres().settings().forEach((k, v) -> rows.add(List.of(k, v)));
        if (env.servers() != null) {
            env.servers().forEach((driver, named) -> rows.add(List.of(driver + " server", named)));
        }
        rows.add(List.of("git commit", env.gitCommit() + (Boolean.TRUE.equals(env.gitDirty()) ? " (with local changes)"
                : "")));
        doc.heading(2, "Environment");
        doc.table(List.of("what", "value"), rows);
        if (env.postgres().nonDefaultSettings() == null) {
            return; // written before they were recorded: the opening lines say so
        }
        doc.paragraph("Settings not from PostgreSQL's built-in defaults (pg_settings, but for the session's own and"
                + " those the server sets at start); \"default\" says whether the value is the default all the same.");
        doc.table(List.of("setting", "value", "source", "default"), env.postgres().nonDefaultSettings().stream()
                .map(s -> List.of(s.name(), s.setting(), s.source(), s.matchesDefault() ? "yes" : "no")).toList());
    }

    private static void comparison(Document doc, List<ComparisonRow> rows, List<CellResult> runs, boolean sweep) {
        for (DriverName driver : rows.stream().map(ComparisonRow::driver).distinct().toList()) {
            doc.heading(2, "Comparison: " + driver);
            List<ComparisonRow> mine = rows.stream().filter(r -> r.driver() == driver).toList();
            boolean onceEach = mine.stream().allMatch(r -> repetitions(runs, r) <= 1);
            boolean noLatency = mine.stream().allMatch(r -> r.p99Ms() == null);
            String latency = noLatency
                    ? "; no latency: this driver does not measure it, and counts messages from the table"
                    : "; latency end to end (" + LatencyEnd.of(driver) + ")"
                    + (onceEach ? "" : ", each percentile the median of the repetitions' own");
            doc.paragraph((onceEach ? "Messages processed per second, one run of each cell"
                    : "Messages processed per second, median of the repetitions") + "; delta against the baseline "
                    + mine.get(0).baseline() + latency + (onceEach ? "." : "; spread = (max - min) / median."));
            List<String> header = new ArrayList<>(List.of("configuration", "batch"));
            if (sweep) {
                header.addAll(List.of("producers", "consumers"));
            }
            header.addAll(List.of("RPS", "delta", "delta %", "p50 ms", "p95 ms", "p99 ms", "min-max", "spread %"));
            doc.table(header, mine.stream().map(r -> {
                List<String> row = new ArrayList<>(List.of(r.layout(), Integer.toString(r.batchSize())));
                if (sweep) {
                    row.addAll(List.of(Integer.toString(r.producers()), Integer.toString(r.consumers())));
                }
                row.addAll(List.of(n(r.rps()), n(r.delta()), f(r.deltaPct()), f(r.p50Ms()), f(r.p95Ms()),
                        f(r.p99Ms()), new Range(r.rps(), r.rpsMin(), r.rpsMax()).minMax(repetitions(runs, r)),
                        repetitions(runs, r) <= 1 ? "-" : f(r.spreadPct())));
                return row;
            }).toList());
        }
    }

    /** How many times the row's cell ran. */
    private static int repetitions(List<CellResult> runs, ComparisonRow row) {
        return runs.stream().filter(c -> c.driver() == row.driver() && c.layout().equals(row.layout())
                && c.batchSize() == row.batchSize() && c.producers() == row.producers()
                && c.consumers() == row.consumers()).mapToInt(CellResult::repetitions).findFirst().orElse(1);
    }

    /**
     * The library against PostgreSQL's own client on the same layout and batch size in the same run:
     * pgbench running the library's statements (the ceiling), pgbench on the minimal queue, and the
     * raw-SQL JDBC loop (the cost of a JDBC loop), each column only when its driver ran.
     */
    private static void ceiling(Document doc, List<CellResult> runs, boolean sweep) {
        List<Verdict.Ceiling> ceilings = Verdict.ceilings(runs);
        if (ceilings.isEmpty()) {
            return;
        }
        boolean pgbench = ceilings.stream().anyMatch(c -> c.pgbench() != null);
        boolean minimal = ceilings.stream().anyMatch(c -> c.pgbenchMinimal() != null);
        boolean raw = ceilings.stream().anyMatch(c -> c.rawSql() != null);
        List<String> header = new ArrayList<>(List.of("layout", "batch"));
        if (sweep) {
            header.addAll(List.of("producers", "consumers"));
        }
        header.add("direct RPS");
        if (pgbench) {
            header.addAll(List.of("pgbench RPS", "direct / pgbench %"));
        }
        if (minimal) {
            header.addAll(List.of("pgbench-minimal RPS", "direct / minimal %"));
        }
        if (raw) {
            header.addAll(List.of("raw-sql RPS", "direct / raw-sql %"));
        }
        List<List<String>> rows = new ArrayList<>();
        for (Verdict.Ceiling c : ceilings) {
            List<String> row = new ArrayList<>(List.of(c.layout(), Integer.toString(c.batchSize())));
            if (sweep) {
                row.addAll(List.of(Integer.toString(c.producers()), Integer.toString(c.consumers())));
            }
            row.add(n(c.direct()));
            if (pgbench) {
                row.addAll(List.of(n(c.pgbench()), f(c.directToPgbenchPct())));
            }
            if (minimal) {
                row.addAll(List.of(n(c.pgbenchMinimal()), f(c.directToMinimalPct())));
            }
            if (raw) {
                row.addAll(List.of(n(c.rawSql()), f(c.directToRawSqlPct())));
            }
            rows.add(row);
        }
        doc.heading(2, "The library against the ceiling");
        doc.paragraph("Median messages processed per second on the same layout and batch size in this run. pgbench is"
                + " PostgreSQL's own client running the library's statements for the layout, batch size and delivery"
                + " mode: the ceiling. pgbench-minimal is pgbench on the minimal queue (id, payload, created_at;"
                + " insert a batch, delete a batch from the head with SKIP LOCKED), its own table whatever the layout,"
                + " one cell per batch size: what PostgreSQL does with row deletes. Both get the vacuum the library's"
                + " workers run on their own table, and both count messages from the table. raw-sql is the library's"
                + " statements from a minimal JDBC loop: the cost of a JDBC loop, not a ceiling.");
        doc.table(header, rows);
    }

    private static void serverAndClient(Document doc, List<CellResult> runs, boolean sweep) {
        doc.heading(2, "Server and client");
        doc.paragraph("Each figure the median over the repetitions of each repetition's own. WAL per message"
                + " processed; CPU in percent of one core (the client's"
                + " of the pgbench cells includes both pgbench processes, averaged over warm-up and window); table,"
                + " index and dead tuples after the window; autovacuum runs during it.");
        doc.table(List.of("cell", "WAL B/msg", "PG CPU %", "table MB", "index MB", "dead tuples", "autovacuums",
                "client CPU %", "threads", "RSS MB", "connections"), runs.stream()
                .filter(r -> r.server() != null && r.client() != null).map(r -> {
            ServerRange s = r.server();
            ClientRange c = r.client();
            return List.of(cell(r, sweep), f(s.walBytesPerMessage().median()),
                    s.postgresCpuPercent() == null ? "n/a" : f(s.postgresCpuPercent().median()),
                    mb(s.tableBytes().median()), mb(s.indexBytes().median()), n(s.deadTuples().median()),
                    n(s.autovacuumRuns().median()), f(c.cpuPercent().median()), n(c.threads().median()),
                    mb(c.rssBytes().median()), n(c.connections().median()));
        }).toList());
    }

    /** Where the producers report acknowledgements: the write rate in MiB/s, write and read latency, and the lag. */
    private static void writesAndReads(Document doc, List<CellResult> runs, Object messageSize, boolean sweep) {
        List<CellResult> measured = runs.stream().filter(r -> r.writeLatencyMs().measured()).toList();
        if (measured.isEmpty()) {
            return;
        }
        double bytes = messageSize instanceof Number n ? n.doubleValue() : 0;
        doc.heading(2, "Writes and reads");
        doc.paragraph("Written MiB/s: the median of the repetitions' enqueue rates times the message size;"
                + " latencies: the median of the repetitions' own; lag: from the repetition with the median"
                + " processed/s."
                + " Write: from a batch's enqueue stamp to its producer's acknowledgement (the commit returned). Read:"
                + " from that acknowledgement to the finish (0 for a message read before its producer heard of the"
                + " commit). Lag: messages enqueued and not yet processed (once per group reading a topic) at the end"
                + " of each second, the largest and the last.");
        doc.table(List.of("cell", "written MiB/s", "write p50 ms", "write p99 ms", "read p50 ms", "read p99 ms",
                "lag max", "lag last"), measured.stream().map(r -> {
            List<SecondSample> series = r.median().series();
            long maxLag = series.stream().mapToLong(SecondSample::lag).max().orElse(0);
            long lastLag = series.isEmpty() ? 0 : series.get(series.size() - 1).lag();
            return List.of(cell(r, sweep), f(r.enqueueThroughput().median() * bytes / 1048576.0),
                    f(r.writeLatencyMs().p50().median()), f(r.writeLatencyMs().p99().median()),
                    f(r.readLatencyMs().p50().median()), f(r.readLatencyMs().p99().median()), String.format(Locale.ROOT, "%,d", maxLag),
                    String.format(Locale.ROOT, "%,d", lastLag));
        }).toList());
    }

    /** Where the driver times the library's claims: how many, how full, and how long each took. */
    /**
     * At a fixed offered rate, the latency of the messages each repetition sent in its window, followed to delivery:
     * the comparison's figures time the messages delivered in the window, and leave out those a system that falls
     * behind still owed when it closed, so such a system there looks faster than it is.
     */
    private static void cohort(Document doc, List<CellResult> runs, boolean sweep) {
        List<CellResult> followed = runs.stream().filter(r -> r.cohortMs(99) != null).toList();
        if (followed.isEmpty()) {
            return;
        }
        doc.heading(2, "Messages sent in the window");
        doc.paragraph("The messages each repetition sent in its window, followed until delivered or for a second"
                + " past its end; those still owed then rank above every delivered one, their latency at least the"
                + " time they waited. The comparison above times the messages delivered in the window, and leaves"
                + " the owed out: where some are owed, these are the figures to read. Each figure the median of the"
                + " repetitions' own.");
        doc.table(List.of("cell", "p50 ms", "p99 ms", "owed %"), followed.stream().map(r -> List.of(cell(r, sweep),
                ms(r.cohortMs(50).median()), ms(r.cohortMs(99).median()), f(r.owedPercent().median()))).toList());
    }

    private static void claims(Document doc, List<CellResult> runs, boolean sweep) {
        List<CellResult> measured = runs.stream().filter(r -> r.claimMs().measured()).toList();
        if (measured.isEmpty()) {
            return;
        }
        doc.heading(2, "Claims");
        doc.paragraph("The library's claims that took at least one task, as its listener timed them: from sending the"
                + " claim to reading its tasks, the lease committed (one round trip). Each figure the median of the"
                + " repetitions' own. A claim's time includes waiting for the server's CPU and disk, so compare cells"
                + " at the same load.");
        doc.table(List.of("cell", "claims/s", "tasks per claim", "claim p50 ms", "claim p95 ms", "claim p99 ms"),
                measured.stream().map(r -> claimRow(r, sweep)).toList());
    }

    private static List<String> claimRow(CellResult run, boolean sweep) {
        LatencyRange claim = run.claimMs();
        return List.of(cell(run, sweep), n(run.claimsPerSecond().median()), f(run.tasksPerClaim().median()),
                ms(claim.p50().median()), ms(claim.p95().median()), ms(claim.p99().median()));
    }

    private static void stability(Document doc, List<CellResult> runs, boolean sweep) {
        List<List<String>> rows = runs.stream().filter(r -> r.stability() != null).map(r -> List.of(
                cell(r, sweep), n(r.stability().firstMinute()),
                r.stability().perMinute().stream().map(ReportDocument::n).toList().toString(),
                f(r.stability().maxDeviationPct()), r.stability().withinTenPct() ? "yes" : "no")).toList();
        if (!rows.isEmpty()) {
            doc.heading(2, "Stability");
            doc.table(List.of("cell", "first minute /s", "per minute /s", "max deviation %", "within 10 %"), rows);
            runs.stream().filter(r -> r.stability() != null && !r.median().serverMinutes().isEmpty())
                    .forEach(r -> minutes(doc, r, sweep));
        }
    }

    private static void minutes(Document doc, CellResult run, boolean sweep) {
        doc.heading(3, cell(run, sweep) + " minute by minute");
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
            doc.table(List.of("driver", "layout", "batch", "producers", "consumers", "status", "reason"),
                    skipped.stream().map(s -> List.of(s.driver().toString(), s.layout(), Integer.toString(s.batchSize()),
                            Integer.toString(s.producers()), Integer.toString(s.consumers()), s.status(),
                            s.reason())).toList());
        }
    }

    /** A cell in a table's first column; with the producers and consumers when the run sweeps them. */
    private static String cell(CellResult r, boolean sweep) {
        return r.driver() + " " + Verdict.name(r, sweep);
    }

    private static String n(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** A time under a few milliseconds: two decimals. */
    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String f(Double value) {
        return value == null ? "-" : f(value.doubleValue());
    }

    private static String n(Double value) {
        return value == null ? "-" : n(value.doubleValue());
    }

    private static String mb(double bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
    }
}
