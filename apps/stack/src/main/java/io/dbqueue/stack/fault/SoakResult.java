package io.dbqueue.stack.fault;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the soak measured: the stack at a steady rate for a long time.
 *
 * @param minutes          messages processed in each whole minute
 * @param rssSlopes        each service's resident memory trend over the second half, MB per minute
 * @param rssMb            each service's resident memory at the end, MB
 * @param tableSlope       the queue table's size trend over the second half (with indexes), MB per minute
 * @param tableMb          its size at the end, MB
 * @param errors           ERROR lines in the services' logs
 * @param acknowledged     messages acknowledged
 * @param lost             acknowledged and never processed
 * @param problems         why the soak failed; empty when it passed
 */
public record SoakResult(List<Long> minutes, Map<String, Double> rssSlopes, Map<String, Double> rssMb,
                         double tableSlope, double tableMb, long errors, long acknowledged, long lost,
                         List<String> problems) implements ScenarioOutcome {

    /** Largest allowed drift of a later minute's throughput from the first's. */
    static final double THROUGHPUT_TOLERANCE = 0.10;
    /** A service's memory counts as flat below this trend over the second half. */
    static final double RSS_FLAT_MB_PER_MINUTE = 2.0;
    /** The table counts as flat below this trend over the second half. */
    static final double TABLE_FLAT_MB_PER_MINUTE = 0.5;

    public SoakResult {
        minutes = List.copyOf(minutes);
        rssSlopes = Map.copyOf(rssSlopes);
        rssMb = Map.copyOf(rssMb);
        problems = List.copyOf(problems);
    }

    /** The checks, given the measurements: what is not as the soak requires. */
    static List<String> problems(List<Long> minutes, Map<String, Double> rssSlopes, double tableSlope, long errors,
                                 long lost) {
        List<String> problems = new java.util.ArrayList<>();
        if (minutes.size() < 2) {
            problems.add("fewer than two whole minutes measured");
        } else {
            long first = minutes.get(0);
            for (int i = 1; i < minutes.size(); i++) {
                if (Math.abs(minutes.get(i) - first) > THROUGHPUT_TOLERANCE * first) {
                    problems.add(String.format(Locale.ROOT, "minute %d processed %d, more than 10 %% from the first's %d",
                            i + 1, minutes.get(i), first));
                }
            }
        }
        rssSlopes.forEach((service, slope) -> {
            if (slope > RSS_FLAT_MB_PER_MINUTE) {
                problems.add(String.format(Locale.ROOT, "%s's memory grows %.2f MB/min", service, slope));
            }
        });
        if (tableSlope > TABLE_FLAT_MB_PER_MINUTE) {
            problems.add(String.format(Locale.ROOT, "the queue table grows %.2f MB/min", tableSlope));
        }
        if (errors > 0) {
            problems.add(errors + " ERROR lines in the services' logs");
        }
        if (lost > 0) {
            problems.add(lost + " acknowledged messages never processed");
        }
        return problems;
    }

    public boolean passed() {
        return problems.isEmpty();
    }

    public String line() {
        long min = minutes.stream().mapToLong(Long::longValue).min().orElse(0);
        long max = minutes.stream().mapToLong(Long::longValue).max().orElse(0);
        String rss = rssSlopes.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> String.format(Locale.ROOT, "%s %.0f MB (%+.2f MB/min)", e.getKey(), rssMb.get(e.getKey()),
                        e.getValue()))
                .collect(Collectors.joining(", "));
        String line = String.format(Locale.ROOT, "soak %s: %d minutes, processed per minute first %d, min %d, max %d;"
                        + " memory %s; queue table %.1f MB (%+.2f MB/min); %d ERROR lines; acknowledged %d, lost %d",
                passed() ? "PASS" : "FAIL", minutes.size(), minutes.isEmpty() ? 0 : minutes.get(0), min, max, rss,
                tableMb, tableSlope, errors, acknowledged, lost);
        return problems.isEmpty() ? line : line + " -- " + String.join("; ", problems);
    }

    @Override
    public String markdown() {
        return line() + "\n\nProcessed per window: " + minutes + "\n";
    }
}
