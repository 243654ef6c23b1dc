package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.handlers.SlowHandlerSample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes {@code slow-handlers.json} and {@code slow-handlers.md} for {@code bench slow-handlers}. */
public final class SlowHandlerReportWriter {

    private SlowHandlerReportWriter() {
    }

    public static void write(Path dir, Instant started, Map<String, Object> settings, Environment environment,
                             List<SlowHandlerSample> samples) throws IOException {
        ReportWriter.writeSideRun(dir, "slow-handlers.json", started, settings, environment, samples);

        Document doc = ReportDocument.opening("db-queue bench: slow handlers next to producers", environment);
        doc.paragraph("Started " + started + ". One application, one connection pool: " + settings.get("producers")
                + " producer threads enqueue batches of 10 for " + settings.get("phase_seconds") + " s, alone, then next to "
                + settings.get("workers") + " workers whose handler takes " + settings.get("handler_ms") + " ms per batch of 10,"
                + " at least once and exactly once. Pool of " + settings.get("pool") + " connections, connection timeout "
                + settings.get("connection_timeout_ms") + " ms. Median with min-max over " + settings.get("repeat")
                + " repetitions; the last column is the median against the producers alone, in the same run.");
        ReportDocument.environment(doc, environment);
        doc.heading(2, "Producers' messages per second");
        double alone = samples.get(0).messagesPerSecond().median();
        List<List<String>> rows = new ArrayList<>();
        for (SlowHandlerSample sample : samples) {
            rows.add(List.of(sample.phase(), String.format(Locale.ROOT, "%,.0f", sample.messagesPerSecond().median()),
                    sample.messagesPerSecond().minMax(sample.runs().size()), Long.toString(sample.failedBatches()),
                    String.format(Locale.ROOT, "%.0f %%", alone == 0 ? 0 : 100 * sample.messagesPerSecond().median() / alone)));
        }
        doc.table(List.of("phase", "messages/s", "min-max", "failed enqueues", "vs alone"), rows);
        Files.writeString(dir.resolve("slow-handlers.md"), MarkdownRenderer.render(doc));
    }

    /** The settings block of a run. */
    public static Map<String, Object> settings(int producers, int workers, Duration handler, Duration phase, int pool,
                                               long connectionTimeoutMs, int repeat) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("producers", producers);
        settings.put("workers", workers);
        settings.put("handler_ms", handler.toMillis());
        settings.put("phase_seconds", phase.toSeconds());
        settings.put("pool", pool);
        settings.put("connection_timeout_ms", connectionTimeoutMs);
        settings.put("repeat", repeat);
        return settings;
    }
}
