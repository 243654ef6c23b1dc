package io.dbqueue.bench.cli;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.report.AnswerDocs;
import io.dbqueue.bench.report.AnswerReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code bench docs DIR}: writes the answer's table from a committed run into the README and the performance page. */
@Command(name = "docs", mixinStandardHelpOptions = true, version = BenchCommand.VERSION,
        description = "Writes the summary table of the answer run in DIR (its results.json) between the"
                + " answer-table markers of README.md and docs/performance.md.")
final class DocsCommand implements Callable<Integer> {

    /** The pages that show the answer's table, relative to the project directory. */
    static final List<String> PAGES = List.of("README.md", "docs/performance.md");

    @Parameters(paramLabel = "DIR", description = "An answer run's directory, e.g. docs/results/2026-11-26-answer.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(dir.resolve("results.json"))) {
            throw new IllegalArgumentException(dir + " has no results.json");
        }
        AnswerResults results = AnswerReportWriter.read(dir);
        Path project = ProjectDir.get();
        for (String name : PAGES) {
            Path page = project.resolve(name);
            String text = Files.readString(page);
            Files.writeString(page, AnswerDocs.replace(text, AnswerDocs.block(results, page.getParent(), dir)));
            System.out.println("bench: wrote the answer table into " + name);
        }
        return 0;
    }
}
