package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.workload.DriverName;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The plain-language end of the report: which layout and batch size won (among the library's
 * cells, or the first driver's when the library was not run), by how much over the runner-up,
 * whether that margin is larger than the run-to-run spread, how close the library came to the
 * ceiling measured in the same run by PostgreSQL's own client (pgbench with the library's
 * statements, and pgbench on the minimal queue), what the raw-SQL JDBC loop says about the cost
 * of a JDBC loop, what a broker measured alongside achieved, and the log against Kafka.
 *
 * @param beyondSpread        whether the winner's slowest repetition beat the runner-up's fastest;
 *                            null with a single repetition or a single cell
 * @param libraryToCeilingPct the library's median over pgbench's (the library's statements) for the
 *                            winner's layout and batch size; null when pgbench did not run there
 * @param libraryToMinimalPct the same over pgbench-minimal's
 * @param libraryToRawSqlPct  the same over the raw-SQL JDBC loop's
 * @param ceilings            every layout and batch size the library ran with at least one of those
 */
public record Verdict(DriverName driver, String winner, String runnerUp, Double marginPct, Boolean beyondSpread,
                      Double libraryToCeilingPct, Double libraryToMinimalPct, Double libraryToRawSqlPct,
                      List<Ceiling> ceilings, List<String> text) {

    static final DriverName LIBRARY = DriverName.DIRECT;
    /** The ceiling: PostgreSQL's own client running the library's statements. */
    static final DriverName CEILING = DriverName.PGBENCH;
    /** The reference: PostgreSQL's own client running the minimal queue. */
    static final DriverName MINIMAL = DriverName.PGBENCH_MINIMAL;
    /** The library's statements from a JDBC loop: the cost of a JDBC loop, not a ceiling. */
    static final DriverName RAW_SQL = DriverName.RAW_SQL;

    /**
     * The library's median processed/s on one layout and batch size against the others measured
     * there in the same run (null when not measured), as percentages of theirs.
     */
    public record Ceiling(String layout, int batchSize, int producers, int consumers, double direct, Double pgbench, Double pgbenchMinimal,
                          Double rawSql, Double directToPgbenchPct, Double directToMinimalPct,
                          Double directToRawSqlPct) {

        static Ceiling of(CellResult library, List<CellResult> runs) {
            double direct = library.throughput().median();
            Double pgbench = median(runs, library, CEILING);
            // the minimal queue's own table does not depend on the layout: its cell of the same batch size
            Double minimal = runs.stream().filter(r -> r.driver() == MINIMAL && r.batchSize() == library.batchSize()
                            && sameClients(r, library)).findFirst().map(r -> r.throughput().median()).orElse(null);
            Double raw = median(runs, library, RAW_SQL);
            return new Ceiling(library.layout(), library.batchSize(), library.producers(), library.consumers(), direct, pgbench, minimal, raw,
                    pct(direct, pgbench), pct(direct, minimal), pct(direct, raw));
        }

        boolean any() {
            return pgbench != null || pgbenchMinimal != null || rawSql != null;
        }

        private static Double median(List<CellResult> runs, CellResult library, DriverName driver) {
            return runs.stream().filter(r -> r.driver() == driver && r.layout().equals(library.layout())
                    && r.batchSize() == library.batchSize() && sameClients(r, library)).findFirst().map(r -> r.throughput().median()).orElse(null);
        }

        private static boolean sameClients(CellResult a, CellResult b) {
            return a.producers() == b.producers() && a.consumers() == b.consumers();
        }

        private static Double pct(double direct, Double other) {
            return other == null || other <= 0 ? null : round(100 * direct / other);
        }
    }

    /** Every layout and batch size of the library's cells that a ceiling driver also ran, in run order. */
    static List<Ceiling> ceilings(List<CellResult> runs) {
        return runs.stream().filter(r -> r.driver() == LIBRARY).map(r -> Ceiling.of(r, runs))
                .filter(Ceiling::any).toList();
    }

    /**
     * The verdict on {@code runs}; {@code paced} (a fixed offered rate): the latencies quoted are those of the
     * messages each window sent, followed to delivery, where the cells followed them.
     */
    static Verdict of(List<CellResult> runs, boolean paced) {
        if (runs.isEmpty()) {
            return new Verdict(null, null, null, null, null, null, null, null, List.of(),
                    List.of("Nothing was measured."));
        }
        DriverName driver = runs.stream().anyMatch(r -> r.driver() == LIBRARY) ? LIBRARY : runs.get(0).driver();
        boolean sweep = ClientMatrix.sweeps(runs);
        List<CellResult> ranked = runs.stream().filter(r -> r.driver() == driver)
                .sorted(Comparator.comparingDouble((CellResult r) -> r.throughput().median()).reversed()).toList();
        CellResult winner = ranked.get(0);
        List<String> text = new ArrayList<>();
        text.add(String.format(Locale.ROOT, "With the %s driver, %s won with %s messages/s processed (%s).",
                driver, name(winner, sweep), number(winner.throughput().median()),
                winner.throughput().describe(winner.repetitions())));
        String runnerUpName = null;
        Double margin = null;
        Boolean beyond = null;
        if (ranked.size() > 1) {
            CellResult second = ranked.get(1);
            runnerUpName = name(second, sweep);
            margin = round(100 * (winner.throughput().median() / second.throughput().median() - 1));
            text.add(String.format(Locale.ROOT, "It beat the runner-up, %s (%s messages/s), by %.1f %%.",
                    runnerUpName, number(second.throughput().median()), margin));
            if (winner.repetitions() > 1 && second.repetitions() > 1) {
                beyond = winner.throughput().min() > second.throughput().max();
                text.add(beyond
                        ? "That margin is larger than the run-to-run spread: the winner's slowest run beat the"
                        + " runner-up's fastest."
                        : "That margin is within the run-to-run spread (the ranges overlap): treat the two as"
                        + " equal on this machine.");
            } else {
                text.add("Each cell ran once, so the run-to-run spread is unknown: repeat (--repeat 3) before"
                        + " trusting the ranking.");
            }
        }
        if (ranked.stream().mapToInt(CellResult::batchSize).distinct().count() > 1) {
            text.add(batchEffect(ranked, sweep));
        }
        List<Ceiling> ceilings = ceilings(runs);
        Ceiling mine = winner.driver() == LIBRARY ? ceilings.stream().filter(c -> c.layout().equals(
                winner.layout()) && c.batchSize() == winner.batchSize() && c.producers() == winner.producers()
                && c.consumers() == winner.consumers()).findFirst().orElse(null) : null;
        if (driver == LIBRARY) {
            text.addAll(ceilingText(runs, ceilings, mine, sweep));
        }
        brokers(runs, winner, paced).forEach(text::add);
        text.addAll(PubSubVerdict.text(runs, paced));
        return new Verdict(driver, name(winner, sweep), runnerUpName, margin, beyond,
                mine == null ? null : mine.directToPgbenchPct(), mine == null ? null : mine.directToMinimalPct(),
                mine == null ? null : mine.directToRawSqlPct(), ceilings, text);
    }

    /** The library against pgbench, pgbench-minimal and the JDBC loop, for the winner and over every cell. */
    private static List<String> ceilingText(List<CellResult> runs, List<Ceiling> ceilings, Ceiling winner,
                                            boolean sweep) {
        List<String> text = new ArrayList<>();
        boolean pgbench = ceilings.stream().anyMatch(c -> c.directToPgbenchPct() != null);
        boolean minimal = ceilings.stream().anyMatch(c -> c.directToMinimalPct() != null);
        if (winner != null && (winner.directToPgbenchPct() != null || winner.directToMinimalPct() != null)) {
            List<String> parts = new ArrayList<>();
            if (winner.directToPgbenchPct() != null) {
                parts.add(String.format(Locale.ROOT, "%.0f %% of pgbench running the library's own statements (the"
                        + " ceiling)", winner.directToPgbenchPct()));
            }
            if (winner.directToMinimalPct() != null) {
                parts.add(String.format(Locale.ROOT, "%.0f %% of pgbench on the minimal queue (a bare insert and"
                        + " delete of its own table)", winner.directToMinimalPct()));
            }
            text.add("Against PostgreSQL's own client on the same server in this run, the winner reached "
                    + String.join(" and ", parts) + ".");
        }
        if (pgbench || minimal) {
            range(ceilings, Ceiling::directToPgbenchPct, CEILING.toString()).ifPresent(text::add);
            range(ceilings, Ceiling::directToMinimalPct, MINIMAL.toString()).ifPresent(text::add);
            text.add("Per layout and batch size, the library's median as a percentage of "
                    + (pgbench && minimal ? "pgbench's and pgbench-minimal's" : pgbench ? "pgbench's"
                    : "pgbench-minimal's") + ": " + ceilings.stream()
                    .filter(c -> c.directToPgbenchPct() != null || c.directToMinimalPct() != null)
                    .map(c -> name(c.layout(), c.batchSize(), c.producers(), c.consumers(), sweep) + " "
                            + (pgbench ? pct(c.directToPgbenchPct()) : "")
                            + (pgbench && minimal ? " / " : "") + (minimal ? pct(c.directToMinimalPct()) : ""))
                    .collect(Collectors.joining("; ")) + ".");
        } else if (runs.stream().anyMatch(r -> r.driver() == LIBRARY)) {
            text.add("pgbench was not measured alongside the library, so how close the library comes to the ceiling"
                    + " is unknown from this run (add pgbench and pgbench-minimal to --drivers).");
        }
        if (winner != null && winner.directToRawSqlPct() != null) {
            text.add(String.format(Locale.ROOT, "Against the library's statements from a minimal JDBC loop (raw-sql,"
                    + " the cost of a JDBC loop, not a ceiling), the winner reached %.0f %%.", winner.directToRawSqlPct()));
        }
        return text;
    }

    /** "Over all N layouts and batch sizes measured with both, the library reached between a % and b % of X.", with two or more. */
    private static Optional<String> range(List<Ceiling> ceilings, Function<Ceiling, Double> pct, String other) {
        List<Double> values = ceilings.stream().map(pct).filter(v -> v != null).toList();
        if (values.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "Over all %d layouts and batch sizes measured with both, the library"
                        + " reached between %.0f %% and %.0f %% of %s.", values.size(),
                values.stream().mapToDouble(d -> d).min().orElse(0), values.stream().mapToDouble(d -> d).max().orElse(0),
                other));
    }

    private static String pct(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.0f %%", value);
    }

    /** For each queue broker measured in the run, its best cell against the winner (pub/sub cells: {@link PubSubVerdict}). */
    private static List<String> brokers(List<CellResult> runs, CellResult winner, boolean paced) {
        return runs.stream().filter(r -> r.driver().isBroker() && !r.driver().isPubSub()
                        && r.driver() != winner.driver())
                .collect(Collectors.groupingBy(CellResult::driver)).values().stream()
                .map(cells -> cells.stream().max(Comparator.comparingDouble(c -> c.throughput().median())).orElseThrow())
                .map(best -> String.format(Locale.ROOT, "On the same machine %s processed at best %s messages/s"
                                + " (batch %d, p99 %.1f ms), against %s (p99 %.1f ms) for the winner.", best.driver(),
                        number(best.throughput().median()), best.batchSize(), p99(best, paced),
                        number(winner.throughput().median()), p99(winner, paced)))
                .toList();
    }

    /**
     * The cell's p99 in ms, the median of its repetitions' own: at a fixed rate ({@code paced}) of the messages each
     * window sent, followed to delivery, where the cell followed them; else of those the window delivered.
     */
    static double p99(CellResult cell, boolean paced) {
        Range followed = cell.cohortMs(99);
        return paced && followed != null ? followed.median() : cell.latencyMs().p99().median();
    }

    /** How much the batch size matters: the best cell at the smallest batch size against the winner. */
    private static String batchEffect(List<CellResult> ranked, boolean sweep) {
        int smallest = ranked.stream().mapToInt(CellResult::batchSize).min().orElse(1);
        CellResult bestSmall = ranked.stream().filter(r -> r.batchSize() == smallest).findFirst().orElseThrow();
        CellResult winner = ranked.get(0);
        if (bestSmall == winner) {
            return "The smallest batch size won, so batching did not help here.";
        }
        return String.format(Locale.ROOT, "At the smallest batch size, %d, the best was %s with %s messages/s:"
                        + " the winner processed %.1f times as many.", smallest, name(bestSmall, sweep),
                number(bestSmall.throughput().median()),
                winner.throughput().median() / Math.max(1, bestSmall.throughput().median()));
    }

    /** A cell as the verdict and the report's tables name it; with its producers and consumers when the run sweeps them. */
    static String name(CellResult cell, boolean sweep) {
        return name(cell.layout(), cell.batchSize(), cell.producers(), cell.consumers(), sweep);
    }

    private static String name(String layout, int batchSize, int producers, int consumers, boolean sweep) {
        return layout + " batch " + batchSize + (sweep ? ", " + producers + " producers x " + consumers + " consumers"
                : "");
    }

    static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
