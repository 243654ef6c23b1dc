package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.scenario.Fairness;
import io.dbqueue.bench.scenario.RunResult;
import io.dbqueue.bench.scenario.Scenario;
import io.dbqueue.bench.scenario.ScenarioCell;
import io.dbqueue.bench.scenario.ScenarioSummary;
import io.dbqueue.bench.scenario.ScenarioTargets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import static io.dbqueue.bench.scenario.ScenarioTargets.number;

/** Writes {@code scenarios.json}, {@code scenarios.md} and a pickup chart per scenario for {@code bench scenario}. */
public final class ScenarioReportWriter {

    private ScenarioReportWriter() {
    }

    public static void write(Path dir, Instant started, Map<String, Object> settings, Environment environment,
                             List<ScenarioSummary> summaries) throws IOException {
        List<Map<String, Object>> json = new ArrayList<>();
        for (ScenarioSummary s : summaries) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("scenario", s.scenario().name());
            one.put("description", s.scenario().description());
            one.put("settings", s.scenario().settings());
            one.put("cells", s.cells());
            json.add(one);
        }
        ReportWriter.writeSideRun(dir, "scenarios.json", started, settings, environment, json);
        Files.createDirectories(dir.resolve("charts"));

        Map<String, ScenarioSummary> byName = new LinkedHashMap<>();
        summaries.forEach(s -> byName.put(s.scenario().name(), s));
        Document doc = ReportDocument.opening("db-queue bench: scenarios, pickup latency under every shape of load",
                environment);
        doc.paragraph("Started " + started + ". Each scenario runs its wakeup modes (and fairness settings) in turn, once per"
                + " repetition, on a fresh dbq_seq table; figures are medians over the repetitions, with min-max where"
                + " shown. Producers send each task when it is due, one enqueue and commit per task, from 8 threads."
                + " Pickup is the time from the producer's acknowledged commit to the claim's commit (the handler's start"
                + " on the claimed batch), both stamped with the machine's wall clock in microseconds, the one clock the"
                + " lab and its consumer processes share; a commit is visible to workers just before its producer hears"
                + " of it, so a task may be claimed first: such pickups count as 0 and are listed (\"early\"); a"
                + " delayed task's pickup runs from its due time. Lateness runs from the due time of an attempt that"
                + " came due after it was written (a delayed task's first, a retry) to its claim; the due time is"
                + " stamped before the insert or the failed attempt's acknowledgement, so it errs late."
                + " End to end runs from the task's due time to its acknowledged finish. Latencies cover the tasks due in"
                + " the measured window; throughput counts tasks finished in it. poll-X polls every X when idle; notify"
                + " and adaptive have producers send coalesced NOTIFYs (at most one per queue per 10 ms) and fall back to"
                + " polling every second; adaptive polls every 10 ms while saturated and the producers then send none."
                + " Threads and RSS are the consumer JVMs' (in one process: the lab's own JVM, producers included);"
                + " connections are the database's client connections at the window's end.");
        ReportDocument.environment(doc, environment);
        targets(doc, byName);
        advice(doc, summaries);
        for (ScenarioSummary s : summaries) {
            scenario(doc, s, dir);
        }
        Files.writeString(dir.resolve("scenarios.md"), MarkdownRenderer.render(doc));
    }

    private static void targets(Document doc, Map<String, ScenarioSummary> byName) {
        doc.heading(2, "Targets");
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioTargets.Target t : ScenarioTargets.judge(byName)) {
            rows.add(List.of(t.target(), t.measured(), t.met() == null ? "not run" : t.met() ? "met" : "MISSED"));
        }
        doc.table(List.of("target", "measured (medians)", ""), rows);
    }

    private static void advice(Document doc, List<ScenarioSummary> summaries) {
        doc.heading(2, "Which mode when");
        List<String> lines = new ArrayList<>();
        for (ScenarioSummary s : summaries) {
            List<ScenarioCell> cells = s.cells(s.scenario().fairness().get(0));
            if (s.scenario().saturated()) {
                ScenarioCell best = cells.stream().max(Comparator.comparingDouble(c -> c.throughput().median())).orElseThrow();
                lines.add(s.scenario().name() + " (saturated): " + list(cells, c -> c.throughput().median(), " tasks/s")
                        + "; most done by " + best.mode() + ".");
            } else {
                ScenarioCell best = cells.stream().min(Comparator.comparingDouble(c -> c.pickupP95().median())).orElseThrow();
                lines.add(s.scenario().name() + ": pickup p95 " + list(cells, c -> c.pickupP95().median(), " ms")
                        + "; fastest " + best.mode() + ".");
            }
        }
        doc.paragraph(String.join(" ", lines));
        doc.paragraph("In plain words: polling costs its interval in pickup latency and one empty claim per idle worker"
                + " per interval, so it only suits queues where a delay of the interval does not matter. notify picks a"
                + " task up within milliseconds at any load the workers can carry, for the price of a QueueNotifier on"
                + " every producer and one LISTEN connection per consumer process (not through a transaction-mode pooler)."
                + " adaptive behaves as notify while the workers keep up and polls while they are saturated, when a"
                + " notification could only wake a busy worker, so the producers send no NOTIFYs then; choose it where"
                + " load swings between idle and saturated. Compare the tables below on your own machine before relying on"
                + " any of this.");
    }

    private static String list(List<ScenarioCell> cells, ToDoubleFunction<ScenarioCell> value, String unit) {
        List<String> parts = new ArrayList<>();
        for (ScenarioCell c : cells) {
            parts.add(c.mode() + " " + number(value.applyAsDouble(c)) + unit);
        }
        return String.join(", ", parts);
    }

    private static void scenario(Document doc, ScenarioSummary s, Path dir) throws IOException {
        doc.heading(2, s.scenario().name());
        doc.paragraph(s.scenario().description() + " Settings: " + s.scenario().settings() + ".");
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioCell c : s.cells()) {
            int n = c.runs().size();
            rows.add(List.of(c.mode(), c.fairness().label(), number(c.throughput().median()), c.throughput().minMax(n),
                    whole(c, r -> r.completed()), number(c.of(r -> r.pickup().p50()).median()),
                    number(c.pickupP95().median()), number(c.pickupP99().median()),
                    number(c.of(r -> r.endToEnd().p50()).median()), number(c.of(r -> r.endToEnd().p95()).median()),
                    number(c.of(r -> r.endToEnd().p99()).median()), whole(c, RunResult::claimedBeforeAck),
                    whole(c, RunResult::notifications), whole(c, RunResult::switches), whole(c, RunResult::threads),
                    number(c.of(RunResult::rssMb).median()), whole(c, RunResult::connections)));
        }
        doc.table(List.of("mode", "fairness", "tasks/s", "min-max", "completed", "pickup p50 ms", "p95", "p99",
                "end to end p50 ms", "p95", "p99", "early", "NOTIFYs", "switches", "threads", "RSS MB", "connections"), rows);
        if (s.scenario().tenants() > 1) {
            tenants(doc, s);
        }
        if (s.scenario().hasDueLater()) {
            lateness(doc, s);
        }
        if (s.scenario().failures().isPresent()) {
            failures(doc, s);
        }
        s.scenario().rateLimit().ifPresent(limit -> startedRate(doc, s, limit));
        ChartImage chart = Charts.pickup(s);
        Files.write(dir.resolve(chart.path()), chart.png());
        doc.image(chart);
    }

    private static void tenants(Document doc, ScenarioSummary s) {
        List<List<String>> rows = new ArrayList<>();
        boolean noisy = s.scenario().noisyShare() > 0;
        for (ScenarioCell c : s.cells()) {
            RunResult median = medianRun(c);
            long total = median.tenants().stream().mapToLong(RunResult.TenantResult::completed).sum();
            List<String> shares = new ArrayList<>();
            for (RunResult.TenantResult t : median.tenants()) {
                shares.add("t" + t.tenant() + " " + String.format(Locale.ROOT, "%.0f %%", total == 0 ? 0.0
                        : 100.0 * t.completed() / total) + " (p95 " + number(t.pickupP95()) + " ms)");
            }
            rows.add(List.of(c.mode(), c.fairness().label(), noisy ? number(c.quietPickupP95().median()) : "-",
                    noisy && c.fairness() != Fairness.QUIET_ONLY ? number(c.of(RunResult::fairnessRatio).median()) : "-",
                    String.join(", ", shares)));
        }
        doc.paragraph("Per tenant" + (noisy ? " (tenant 0 sends " + Math.round(100 * s.scenario().noisyShare())
                + " % of the tasks; the fairness ratio is its pickup p95 over the other tenants' pooled p95)" : "")
                + "; the share of the tasks finished within the window and per-tenant p95 from the run with the median"
                + " throughput.");
        doc.table(List.of("mode", "fairness", "quiet tenants' pickup p95 ms", "fairness ratio",
                "share of the window's finished tasks per tenant"), rows);
    }

    private static void lateness(Document doc, ScenarioSummary s) {
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioCell c : s.cells()) {
            rows.add(List.of(c.label(), number(c.of(r -> r.lateness().p50()).median()),
                    number(c.of(r -> r.lateness().p95()).median()), number(c.latenessP99().median()),
                    c.latenessP99().minMax(c.runs().size())));
        }
        doc.paragraph("How late the attempts that came due after they were written (delayed tasks, retries) were claimed.");
        doc.table(List.of("cell", "lateness p50 ms", "p95", "p99", "p99 min-max"), rows);
    }

    private static void failures(Document doc, ScenarioSummary s) {
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioCell c : s.cells()) {
            for (RunResult r : c.runs()) {
                RunResult.FailureCount f = r.failures();
                rows.add(List.of(c.label(), Long.toString(f.injectedFailures()), Long.toString(f.failedAttempts()),
                        Long.toString(f.injectedDead()), Long.toString(f.deadLettered()),
                        f.matches() && r.undrained() == 0 ? "exact" : "MISMATCH (" + r.undrained() + " undrained)"));
            }
        }
        doc.paragraph("Planned failures against those the workers' listener reported, every run, all tasks of the run.");
        doc.table(List.of("cell", "planned failed attempts", "failed attempts", "planned dead letters", "dead-lettered",
                ""), rows);
    }

    private static void startedRate(Document doc, ScenarioSummary s, Scenario.RateLimit limit) {
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioCell c : s.cells()) {
            Range started = c.of(RunResult::startedRate);
            rows.add(List.of(c.label(), number(limit.perSecond()), number(started.median()),
                    started.minMax(c.runs().size()), String.format(Locale.ROOT, "%+.1f %%",
                            100 * (started.median() - limit.perSecond()) / limit.perSecond())));
        }
        doc.paragraph("The queue's rate limit (QueueLimits, burst " + limit.burst() + ") against the attempts that all "
                + s.scenario().processes() + " consumer processes together started per second within the window,"
                + " retries included.");
        doc.table(List.of("cell", "limit tasks/s", "started tasks/s", "min-max", "against the limit"), rows);
    }

    private static RunResult medianRun(ScenarioCell c) {
        Range throughput = c.throughput();
        return c.runs().stream().min(Comparator.comparingDouble(r -> Math.abs(r.throughput() - throughput.median())))
                .orElseThrow();
    }

    private static String whole(ScenarioCell c, ToDoubleFunction<RunResult> value) {
        return String.format(Locale.ROOT, "%,.0f", c.of(value).median());
    }
}
