package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.workload.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The plain-language end of the report: which layout and batch size won (among the library's
 * cells, or the first driver's when the library was not run), by how much over the runner-up,
 * whether that margin is larger than the run-to-run spread, how close the library came to
 * the raw-SQL ceiling in the same run, and what a broker measured alongside achieved.
 *
 * @param beyondSpread        whether the winner's slowest repetition beat the runner-up's fastest;
 *                            null with a single repetition or a single cell
 * @param libraryToCeilingPct the library's median over raw SQL's for the winner's layout and batch size
 */
public record Verdict(String driver, String winner, String runnerUp, Double marginPct, Boolean beyondSpread,
                      Double libraryToCeilingPct, List<String> text) {

    static final String LIBRARY = "direct";
    static final String CEILING = "raw-sql";

    static Verdict of(List<CellResult> runs) {
        if (runs.isEmpty()) {
            return new Verdict(null, null, null, null, null, null, List.of("Nothing was measured."));
        }
        String driver = runs.stream().anyMatch(r -> r.driver().equals(LIBRARY)) ? LIBRARY : runs.get(0).driver();
        List<CellResult> ranked = runs.stream().filter(r -> r.driver().equals(driver))
                .sorted(Comparator.comparingDouble((CellResult r) -> r.throughput().median()).reversed()).toList();
        CellResult winner = ranked.get(0);
        List<String> text = new ArrayList<>();
        text.add(String.format(Locale.ROOT, "With the %s driver, %s won with %s messages/s processed (median of %d, "
                        + "range %s-%s).", driver, name(winner), number(winner.throughput().median()),
                winner.repetitions(), number(winner.throughput().min()), number(winner.throughput().max())));
        String runnerUpName = null;
        Double margin = null;
        Boolean beyond = null;
        if (ranked.size() > 1) {
            CellResult second = ranked.get(1);
            runnerUpName = name(second);
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
            text.add(batchEffect(ranked));
        }
        Double ceiling = ceiling(runs, winner).orElse(null);
        if (ceiling != null) {
            text.add(String.format(Locale.ROOT, "The library reached %.0f %% of the raw-SQL ceiling on the same"
                    + " layout and batch size in this run%s.", ceiling, ceilingRange(runs)));
        } else if (!driver.equals(LIBRARY) || runs.stream().noneMatch(r -> r.driver().equals(CEILING))) {
            text.add("The raw-SQL ceiling was not measured alongside the library, so the library's cost is unknown"
                    + " from this run.");
        }
        brokers(runs, winner).forEach(text::add);
        return new Verdict(driver, name(winner), runnerUpName, margin, beyond, ceiling, text);
    }

    /** For each broker measured in the run, its best cell against the winner. */
    private static List<String> brokers(List<CellResult> runs, CellResult winner) {
        return runs.stream().filter(r -> Workload.BROKERS.contains(r.driver()) && !r.driver().equals(winner.driver()))
                .collect(Collectors.groupingBy(CellResult::driver)).values().stream()
                .map(cells -> cells.stream().max(Comparator.comparingDouble(c -> c.throughput().median())).orElseThrow())
                .map(best -> String.format(Locale.ROOT, "On the same machine %s processed at best %s messages/s"
                                + " (batch %d, p99 %.1f ms), against %s (p99 %.1f ms) for the winner.", best.driver(),
                        number(best.throughput().median()), best.batchSize(), best.latencyMs().p99(),
                        number(winner.throughput().median()), winner.latencyMs().p99()))
                .toList();
    }

    /** How much the batch size matters: the best cell at the smallest batch size against the winner. */
    private static String batchEffect(List<CellResult> ranked) {
        int smallest = ranked.stream().mapToInt(CellResult::batchSize).min().orElse(1);
        CellResult bestSmall = ranked.stream().filter(r -> r.batchSize() == smallest).findFirst().orElseThrow();
        CellResult winner = ranked.get(0);
        if (bestSmall == winner) {
            return "The smallest batch size won, so batching did not help here.";
        }
        return String.format(Locale.ROOT, "At the smallest batch size, %d, the best was %s with %s messages/s:"
                        + " the winner processed %.1f times as many.", smallest, name(bestSmall),
                number(bestSmall.throughput().median()),
                winner.throughput().median() / Math.max(1, bestSmall.throughput().median()));
    }

    private static Optional<Double> ceiling(List<CellResult> runs, CellResult winner) {
        if (!winner.driver().equals(LIBRARY)) {
            return Optional.empty();
        }
        return runs.stream().filter(r -> r.driver().equals(CEILING) && r.layout().equals(winner.layout())
                        && r.batchSize() == winner.batchSize() && r.throughput().median() > 0)
                .findFirst().map(raw -> round(100 * winner.throughput().median() / raw.throughput().median()));
    }

    /** "; over all N cells measured with both drivers, between a and b %" or nothing. */
    private static String ceilingRange(List<CellResult> runs) {
        List<Double> ratios = new ArrayList<>();
        for (CellResult library : runs) {
            if (library.driver().equals(LIBRARY)) {
                runs.stream().filter(r -> r.driver().equals(CEILING) && r.layout().equals(library.layout())
                                && r.batchSize() == library.batchSize() && r.throughput().median() > 0)
                        .findFirst()
                        .ifPresent(raw -> ratios.add(100 * library.throughput().median() / raw.throughput().median()));
            }
        }
        if (ratios.size() < 2) {
            return "";
        }
        return String.format(Locale.ROOT, "; over all %d cells measured with both, between %.0f %% and %.0f %%",
                ratios.size(), ratios.stream().mapToDouble(d -> d).min().orElse(0),
                ratios.stream().mapToDouble(d -> d).max().orElse(0));
    }

    static String name(CellResult cell) {
        return cell.layout() + " batch " + cell.batchSize();
    }

    static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
