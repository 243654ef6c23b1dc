package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The answer's table in the README and the performance page is the one {@code bench docs} writes
 * from the committed run it links to: nobody edits the figures by hand, and a new run means a new
 * table.
 */
class DocsTableTest {

    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern RUN_LINK = Pattern.compile("\\]\\(([^)]+)/report\\.md\\)");

    static Stream<Arguments> pages() {
        return AnswerDocs.PAGES.entrySet().stream().map(page -> Arguments.of(page.getKey(), page.getValue()));
    }

    @ParameterizedTest
    @MethodSource("pages")
    void theAnswerTableMatchesTheResultsOfTheRunItLinks(String name, boolean charts) throws Exception {
        Path page = PROJECT.resolve(name);
        String block = AnswerDocs.current(Files.readString(page));
        assertNotNull(block, name + " has no answer-table markers");
        Matcher link = RUN_LINK.matcher(block);
        assertTrue(link.find(), name + "'s answer table links no run: " + block);
        Path run = page.getParent().resolve(link.group(1)).normalize();
        assertTrue(Files.isRegularFile(run.resolve("results.json")), run + " has no results.json");

        AnswerResults results = AnswerReportWriter.read(run);
        for (String chart : charts ? AnswerDocs.chartFiles(results) : List.<String>of()) {
            assertTrue(Files.isRegularFile(run.resolve(chart)), run.resolve(chart) + " is shown but not there");
        }
        assertEquals(AnswerDocs.block(results, page.getParent(), run, charts), block,
                name + "'s answer table differs from " + run + "/results.json: run ./bench docs " + PROJECT.relativize(run));
    }
}
