package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.metrics.ShardStats;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The report's "Shards" section of a run with {@code --shards}: the scaling over the shard counts, the router's
 * overhead, each shard's figures, and each shard's settings.
 */
final class ShardsSection {

    private ShardsSection() {
    }

    static void add(Document doc, Results results) {
        List<CellResult> sharded = results.runs().stream().filter(r -> r.driver().shards() > 0).toList();
        if (sharded.isEmpty()) {
            return;
        }
        doc.heading(2, "Shards");
        doc.paragraph("The sharded-N cells run one queue on each of N servers through ShardedDbQueue, with the same"
                + " total producers and consumers as every other cell. \"% of one shard\" is the cell's median"
                + " processed/s over the sharded-1 cell's; \"per round\" is the range of the same ratio between the"
                + " repetitions that ran side by side in time.");
        doc.table(List.of("layout", "batch", "driver", "processed/s", "min-max", "% of one shard", "per round"),
                ShardScaling.efficiency(sharded).stream().map(r -> List.of(r.cell().layout(),
                        Integer.toString(r.cell().batchSize()), r.cell().driver().toString(),
                        n(r.cell().throughput().median()), r.cell().throughput().minMax(r.cell().repetitions()),
                        f(r.ratioPct()), range(r.roundsPct()))).toList());
        List<ShardScaling.Ratio> routing = ShardScaling.routing(results.runs());
        if (!routing.isEmpty()) {
            doc.paragraph("The router's overhead: sharded-1 (one shard through ShardedDbQueue) against direct (the"
                    + " same server without a shard set), 100 - the ratio of their medians.");
            doc.table(List.of("layout", "batch", "direct", "sharded-1", "overhead %", "per round"), routing.stream()
                    .map(r -> List.of(r.cell().layout(), Integer.toString(r.cell().batchSize()),
                            n(r.reference().throughput().median()), n(r.cell().throughput().median()),
                            f(r.overheadPct()), r.roundsPct() == null ? "-"
                                    : f(100 - r.roundsPct().max()) + " to " + f(100 - r.roundsPct().min())))
                    .toList());
        }
        doc.paragraph("Each shard's server, medians over the repetitions: its queue's processed/s, its CPU (all its"
                + " processes, percent of one core) and WAL per message of its queue, its WAL flushes (fsyncs)"
                + " per second and their mean time (\"-\" without track_wal_io_timing).");
        List<List<String>> rows = new ArrayList<>();
        for (CellResult cell : sharded) {
            for (String shard : shardNames(cell)) {
                List<ShardStats> stats = cell.samples().stream().map(s -> of(s, shard)).filter(Objects::nonNull)
                        .toList();
                List<Double> rates = cell.samples().stream().filter(s -> of(s, shard) != null)
                        .map(s -> of(s, shard).processed() / Math.max(s.seconds(), 1e-9)).toList();
                List<Double> flushes = cell.samples().stream().filter(s -> of(s, shard) != null)
                        .map(s -> of(s, shard).walFlushes() / Math.max(s.seconds(), 1e-9)).toList();
                rows.add(List.of(cell.driver() + " " + cell.layout() + " batch " + cell.batchSize(), shard,
                        n(Range.of(rates).median()), f(median(stats, s -> s.server().postgresCpuPercent())),
                        f(median(stats, s -> s.server().cpuMicrosPerMessage())),
                        n(median(stats, s -> s.server().walBytesPerMessage())), n(Range.of(flushes).median()),
                        precise(median(stats, ShardStats::walFlushMeanMs))));
            }
        }
        doc.table(List.of("cell", "shard", "processed/s", "server CPU %", "CPU µs/msg", "WAL B/msg",
                "WAL flushes/s", "mean flush ms"), rows);
        settings(doc, results.environment());
    }

    /** SHOW of the recorded settings, a column per shard. */
    private static void settings(Document doc, Environment env) {
        if (env.shards() == null) {
            return;
        }
        Set<String> names = new LinkedHashSet<>();
        env.shards().values().forEach(p -> names.addAll(p.settings().keySet()));
        List<String> header = new ArrayList<>(List.of("setting"));
        header.addAll(env.shards().keySet());
        List<List<String>> rows = new ArrayList<>();
        Map<String, Environment.Postgres> shards = new LinkedHashMap<>(env.shards());
        List<String> version = new ArrayList<>(List.of("server"));
        shards.values().forEach(p -> version.add(p.version() + (p.embedded() ? " (embedded)" : " " + p.jdbcUrl())));
        rows.add(version);
        for (String name : names) {
            List<String> row = new ArrayList<>(List.of(name));
            shards.values().forEach(p -> row.add(p.settings().getOrDefault(name, "-")));
            rows.add(row);
        }
        doc.paragraph("Each shard's server (SHOW):");
        doc.table(header, rows);
    }

    private static List<String> shardNames(CellResult cell) {
        Set<String> names = new LinkedHashSet<>();
        cell.samples().forEach(s -> shards(s).forEach(stats -> names.add(stats.shard())));
        return List.copyOf(names);
    }

    private static List<ShardStats> shards(Sample sample) {
        return sample.shards() == null ? List.of() : sample.shards();
    }

    private static ShardStats of(Sample sample, String shard) {
        return shards(sample).stream().filter(s -> s.shard().equals(shard)).findFirst().orElse(null);
    }

    private static Double median(List<ShardStats> stats, Function<ShardStats, Double> figure) {
        Range range = Range.overPresent(stats, figure);
        return range == null ? null : range.median();
    }

    private static String range(Range pct) {
        return pct == null ? "-" : f(pct.min()) + "-" + f(pct.max());
    }

    private static String n(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String f(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String precise(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }
}
