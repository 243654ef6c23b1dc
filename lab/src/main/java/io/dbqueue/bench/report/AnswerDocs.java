package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;

import java.nio.file.Path;

/**
 * The answer's table in a page (README.md, docs/performance.md), between two marker lines, so that
 * {@code bench docs} writes it from a committed run and a test checks it still matches.
 */
public final class AnswerDocs {

    public static final String START = "<!-- answer-table:start -->";
    public static final String END = "<!-- answer-table:end -->";

    private AnswerDocs() {
    }

    /** What goes between the markers of a page in {@code pageDir} for the run in {@code runDir}. */
    public static String block(AnswerResults results, Path pageDir, Path runDir) {
        String link = pageDir.toAbsolutePath().normalize().relativize(runDir.toAbsolutePath().normalize()).toString()
                .replace('\\', '/');
        return AnswerTable.summaryMarkdown(results) + "\n\nMessages per second, the median of " + results.repeat()
                + " runs per rate, on " + results.environment().postgres().version() + " (" + results.layout()
                + " layout), " + results.environment().cpu().model() + ", " + results.environment().cpu().cores()
                + " cores: [" + runDir.getFileName() + "](" + link + "/report.md).";
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
