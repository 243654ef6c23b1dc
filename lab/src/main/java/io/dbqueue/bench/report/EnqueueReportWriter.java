package io.dbqueue.bench.report;

import io.dbqueue.bench.enqueue.EnqueueSample;
import io.dbqueue.bench.environment.Environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes {@code enqueue-methods.json} and {@code enqueue-methods.md} for {@code bench enqueue-methods}. */
public final class EnqueueReportWriter {

    private EnqueueReportWriter() {
    }

    public static void write(Path dir, Instant started, int rows, int repeat, Environment environment,
                             List<EnqueueSample> samples) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("started_at", started.toString());
        json.put("rows_per_run", rows);
        json.put("repeat", repeat);
        json.put("environment", environment);
        json.put("samples", samples);
        ReportWriter.JSON.writeValue(dir.resolve("enqueue-methods.json").toFile(), json);

        Document doc = ReportDocument.opening("db-queue bench: enqueue methods", environment);
        doc.paragraph("Started " + started + ". " + rows + " rows of 100 bytes per run, written in batches of the"
                + " given size, one auto-committed statement per batch on one connection, into a freshly created"
                + " dbq_seq table; the methods take turns in each of " + repeat + " repetitions. Median with min-max;"
                + " the last column is the median against unnest's, measured in the same run.");
        ReportDocument.environment(doc, environment);
        doc.heading(2, "Rows per second");
        List<List<String>> rowsOut = new ArrayList<>();
        for (EnqueueSample sample : samples) {
            double unnest = samples.stream().filter(s -> s.batchSize() == sample.batchSize()
                    && s.method().equals("unnest")).findFirst().orElseThrow().rowsPerSecond().median();
            rowsOut.add(List.of(sample.method(), Integer.toString(sample.batchSize()),
                    String.format(Locale.ROOT, "%,.0f", sample.rowsPerSecond().median()),
                    sample.rowsPerSecond().minMax(sample.runs().size()),
                    String.format(Locale.ROOT, "%.0f %%", 100 * sample.rowsPerSecond().median() / unnest)));
        }
        doc.table(List.of("method", "batch", "rows/s", "min-max", "vs unnest"), rowsOut);
        Files.writeString(dir.resolve("enqueue-methods.md"), MarkdownRenderer.render(doc));
    }
}
