package io.dbqueue.stack.fault;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the held-xmin scenario measured: a phase before a transaction holds the xmin horizon, one
 * while it does, one after it ended; whether consumer-app's vacuum watch warned; and the usual loss check.
 *
 * @param warning the vacuum watch's warning as consumer-app logged it, or null if it never did
 */
public record HeldXminResult(List<Phase> phases, String warning, long acknowledged, long lost, List<String> problems)
        implements ScenarioOutcome {

    /**
     * One phase of the run.
     *
     * @param processedPerSecond messages processed per second during the phase
     * @param backlog            tasks waiting at its end
     * @param p50Ms              median end-to-end latency of the messages completed in the phase
     * @param p99Ms              99th percentile of the same
     * @param deadTuples         dead tuples in the queue table at its end (pg_stat_user_tables)
     * @param tableMb            the queue table's size with its indexes at its end
     */
    public record Phase(String name, double seconds, double processedPerSecond, long backlog, double p50Ms, double p99Ms,
                        long deadTuples, double tableMb) {
    }

    public HeldXminResult {
        phases = List.copyOf(phases);
        problems = List.copyOf(problems);
    }

    public boolean passed() {
        return problems.isEmpty();
    }

    public String line() {
        String phaseText = phases.stream().map(p -> String.format(Locale.ROOT,
                "%s %.0f s: %.0f processed/s, backlog %d, p50 %.0f ms, p99 %.0f ms, %d dead tuples, %.1f MB", p.name(),
                p.seconds(), p.processedPerSecond(), p.backlog(), p.p50Ms(), p.p99Ms(), p.deadTuples(), p.tableMb()))
                .collect(Collectors.joining("; "));
        String line = "held_xmin " + (passed() ? "PASS" : "FAIL") + ": " + phaseText + "; vacuum watch "
                + (warning == null ? "never warned" : "warned") + "; acknowledged " + acknowledged + ", lost " + lost;
        return problems.isEmpty() ? line : line + " -- " + String.join("; ", problems);
    }

    /** The line's figures as a table, and the vacuum watch's warning in full. */
    @Override
    public String markdown() {
        StringBuilder md = new StringBuilder(passed() ? "PASS" : "FAIL: " + String.join("; ", problems));
        md.append("\n\n| phase | seconds | processed/s | backlog at end | p50 ms | p99 ms | dead tuples at end | table MB |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (Phase p : phases) {
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %d | %.0f | %.0f | %d | %.1f |%n", p.name(),
                    p.seconds(), p.processedPerSecond(), p.backlog(), p.p50Ms(), p.p99Ms(), p.deadTuples(), p.tableMb()));
        }
        md.append("\nVacuum watch: ").append(warning == null ? "never warned" : "`" + warning + "`")
                .append("\n\nAcknowledged ").append(acknowledged).append(", lost ").append(lost).append(".\n");
        return md.toString();
    }
}
