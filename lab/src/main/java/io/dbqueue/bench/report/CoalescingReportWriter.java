package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.producers.CoalescingSample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes {@code coalescing.json} and {@code coalescing.md} for {@code bench coalescing}. */
public final class CoalescingReportWriter {

    private CoalescingReportWriter() {
    }

    public static void write(Path dir, Instant started, Map<String, Object> settings, Environment environment,
                             List<CoalescingSample> samples) throws IOException {
        ReportWriter.writeSideRun(dir, "coalescing.json", started, settings, environment, samples);

        Document doc = ReportDocument.opening(
                "db-queue bench: single enqueues from many threads, with and without coalescing", environment);
        doc.paragraph("Started " + started + ". " + settings.get("threads") + " threads each enqueue one message of 100"
                + " bytes at a time and wait for its commit, for " + settings.get("phase_seconds") + " s per way, on a"
                + " pool of " + settings.get("pool") + " connections: once with QueueProducer.enqueue (a statement and a"
                + " commit per message), once with a CoalescingProducer (concurrent calls merged into one statement per"
                + " batch). Median with min-max over " + settings.get("repeat") + " repetitions; call times from the call"
                + " to its answer (the commit); the last column is the way's median rate against the single enqueues' median rate in the same run.");
        ReportDocument.environment(doc, environment);
        doc.heading(2, "Messages per second and call times");
        double single = samples.get(0).messagesPerSecond().median();
        List<List<String>> rows = new ArrayList<>();
        for (CoalescingSample sample : samples) {
            int runs = sample.runs().size();
            rows.add(List.of(sample.way(), String.format(Locale.ROOT, "%,.0f", sample.messagesPerSecond().median()),
                    sample.messagesPerSecond().minMax(runs), String.format(Locale.ROOT, "%.1f", sample.p50Ms().median()),
                    String.format(Locale.ROOT, "%.1f", sample.p99Ms().median()),
                    String.format(Locale.ROOT, "%.0f %%", single == 0 ? 0 : 100 * sample.messagesPerSecond().median() / single)));
        }
        doc.table(List.of("way", "messages/s", "min-max", "p50 ms", "p99 ms", "vs single"), rows);
        Files.writeString(dir.resolve("coalescing.md"), MarkdownRenderer.render(doc));
    }
}
