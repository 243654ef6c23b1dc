package io.dbqueue.bench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bench report DIR} on a copy of committed results, and on a directory it cannot read. */
class ReportCommandTest {

    @Test
    void theReportAndChartsAreWrittenAgainFromResultsJson(@TempDir Path dir) throws Exception {
        Files.copy(Path.of("..", "docs", "results", "2026-11-24-pubsub-rate-10000", "results.json"),
                dir.resolve("results.json"));
        byte[] before = Files.readAllBytes(dir.resolve("results.json"));
        StringWriter err = new StringWriter();

        int code = BenchMain.execute(new String[]{"report", dir.toString()}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));

        assertEquals(0, code, err.toString());
        assertTrue(Files.readString(dir.resolve("report.md")).contains("## Verdict"));
        assertTrue(Files.readString(dir.resolve("report.html")).contains("data:image/png;base64,"));
        try (var charts = Files.list(dir.resolve("charts"))) {
            assertTrue(charts.anyMatch(p -> p.getFileName().toString().startsWith("matrix-")));
        }
        assertEquals(new String(before), Files.readString(dir.resolve("results.json")), "results.json is left alone");
    }

    @Test
    void aDirectoryWithoutResultsJsonFailsWithOneLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("slow-handlers.json"), "{}");
        StringWriter err = new StringWriter();

        int code = BenchMain.execute(new String[]{"report", dir.toString()}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));

        assertEquals(2, code);
        assertEquals("bench: " + dir + " has no results.json (it holds slow-handlers.json, written by bench"
                + " slow-handlers, which bench report does not read); bench report reads the results.json that bench"
                + " run writes" + System.lineSeparator(), err.toString());
    }
}
