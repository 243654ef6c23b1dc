package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.ClientRange;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.ServerRange;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes a run's output directory: results.json, results.csv, charts/*.png, report.md and report.html. */
public final class ReportWriter {

    /**
     * The files' JSON. Jackson 3 changed some defaults the files were written with under Jackson 2; those are set
     * back here so the files keep their shape: properties in declaration order, not sorted alphabetically; enums as
     * their names, not their toString(); and a value with no properties fails the write rather than becoming {}.
     */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
            .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private static final String CSV_HEADER = "driver,layout,batch_size,producers,consumers,repetitions,throughput_median,throughput_min,"
            + "throughput_max,spread_pct,enqueue_throughput_median,latency_min_ms,latency_avg_ms,latency_p50_ms,"
            + "latency_p95_ms,latency_p99_ms,latency_max_ms,wal_bytes_per_message,postgres_cpu_percent,table_bytes,"
            + "index_bytes,dead_tuples,autovacuum_runs,client_cpu_percent,client_threads,client_rss_bytes,"
            + "connections";

    private ReportWriter() {
    }

    /**
     * Writes the JSON of a lab command besides {@code run} (slow handlers, coalescing) into {@code dir}:
     * when it started, its settings, the environment and its samples.
     */
    public static void writeSideRun(Path dir, String file, Instant started, Map<String, Object> settings,
                                    Environment environment, Object samples) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("started_at", started.toString());
        json.put("settings", settings);
        json.put("environment", environment);
        json.put("samples", samples);
        JSON.writeValue(dir.resolve(file).toFile(), json);
    }

    /** Loads the chart drawing machinery now, while a report can still be drawn after Ctrl-C. */
    public static void prepare() throws IOException {
        System.setProperty("java.awt.headless", "true");
        Charts.loadGraphics();
    }

    public static void write(Path dir, Results results) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve(ResultsReader.RESULTS).toFile(), results);
        writeReport(dir, results);
    }

    /** Everything but results.json, derived from the results: results.csv, the charts, report.md and report.html. */
    public static void writeReport(Path dir, Results results) throws IOException {
        Files.createDirectories(dir.resolve("charts"));
        Files.writeString(dir.resolve("results.csv"), csv(results.runs()));
        List<ChartImage> matrix = Charts.matrix(results.runs());
        List<ChartImage> cells = new ArrayList<>();
        for (CellResult cell : results.runs()) {
            cells.add(Charts.throughput(cell));
            if (cell.latencyMs().measured()) { // the pgbench drivers measure no latency
                cells.add(Charts.latency(cell));
            }
        }
        for (ChartImage chart : concat(matrix, cells)) {
            Files.write(dir.resolve(chart.path()), chart.png());
        }
        Document document = ReportDocument.of(results, matrix, cells);
        Files.writeString(dir.resolve("report.md"), MarkdownRenderer.render(document));
        Files.writeString(dir.resolve("report.html"), HtmlRenderer.render("db-queue bench", document));
    }

    private static List<ChartImage> concat(List<ChartImage> a, List<ChartImage> b) {
        List<ChartImage> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static String csv(List<CellResult> runs) {
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (CellResult r : runs) {
            LatencySummary l = r.latencyMs().median();
            ServerRange s = r.server();
            ClientRange c = r.client();
            List<Object> values = new ArrayList<>(List.of(r.driver(), r.layout(), r.batchSize(), r.producers(), r.consumers(),
                    r.repetitions(),
                    r.throughput().median(), r.throughput().min(), r.throughput().max(), r.spreadPct(),
                    r.enqueueThroughput().median()));
            values.addAll(l.measured() ? List.of(l.min(), l.avg(), l.p50(), l.p95(), l.p99(), l.max())
                    : Arrays.asList(null, null, null, null, null, null));
            values.addAll(s == null ? Arrays.asList(null, null, null, null, null, null)
                    : medians(s.walBytesPerMessage(), s.postgresCpuPercent(), s.tableBytes(), s.indexBytes(),
                    s.deadTuples(), s.autovacuumRuns()));
            values.addAll(c == null ? Arrays.asList(null, null, null, null)
                    : medians(c.cpuPercent(), c.threads(), c.rssBytes(), c.connections()));
            csv.append(values.stream().map(v -> v == null ? "" : v.toString()).collect(Collectors.joining(",")))
                    .append('\n');
        }
        return csv.toString();
    }

    /** The medians of the ranges, null for a missing one. */
    private static List<Object> medians(Range... ranges) {
        return Arrays.stream(ranges).map(r -> r == null ? null : (Object) r.median()).toList();
    }
}
