package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer's table in a page (README.md, docs/performance.md), between two marker lines, so that
 * {@code bench docs} writes it from a committed run and a test checks it still matches.
 */
public final class AnswerDocs {

    public static final String START = "<!-- answer-table:start -->";
    public static final String END = "<!-- answer-table:end -->";
    /** The pages that show the table, relative to the project directory, and whether they show its charts. */
    public static final Map<String, Boolean> PAGES = Collections.unmodifiableMap(new TreeMap<>(Map.of("README.md", false,
            "docs/performance.md", true)));

    private AnswerDocs() {
    }

    /**
     * What goes between the markers of a page in {@code pageDir} for the run in {@code runDir}: the
     * summary table, where it comes from, and with {@code charts} the headline shape's two charts.
     */
    public static String block(AnswerResults results, Path pageDir, Path runDir, boolean charts) {
        String link = pageDir.toAbsolutePath().normalize().relativize(runDir.toAbsolutePath().normalize()).toString()
                .replace('\\', '/');
        StringBuilder block = new StringBuilder(AnswerTable.summaryMarkdown(results)).append("\n\nMessages per"
                + " second, the median of ").append(results.repeat()).append(" runs per rate (-: not in that shape), on PostgreSQL ")
                .append(results.environment().postgres().version()).append(" (").append(results.layout())
                .append(" layout), ").append(results.environment().cpu().model()).append(", ")
                .append(results.environment().cpu().cores()).append(" cores: [").append(runDir.getFileName())
                .append("](").append(link).append("/report.md).");
        if (charts && !results.shapes().isEmpty()) {
            for (String chart : chartFiles(results)) {
                block.append("\n\n![").append(chart).append("](").append(link).append('/').append(chart).append(')');
            }
        }
        return block.toString();
    }

    /** The headline shape's charts, as paths under the run's directory: the files a page shows, to be committed. */
    public static List<String> chartFiles(AnswerResults results) {
        String slug = results.shapes().get(0).slug();
        return List.of("charts/answer-p99-" + slug + ".png", "charts/answer-delivered-" + slug + ".png");
    }

    /** {@code page} with the text between its markers replaced by {@code block}. */
    public static String replace(String page, String block) {
        int start = page.indexOf(START);
        int end = page.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("the page has no " + START + " ... " + END + " markers");
        }
        return page.substring(0, start + START.length()) + "\n" + block + "\n" + page.substring(end);
    }

    /** The text between a page's markers, without the newlines next to them; null when it has none. */
    public static String current(String page) {
        int start = page.indexOf(START);
        int end = page.indexOf(END);
        return start < 0 || end < start ? null : page.substring(start + START.length(), end).strip();
    }
}
