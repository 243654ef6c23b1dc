package io.dbqueue.bench.cli;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.report.AnswerDocs;
import io.dbqueue.bench.report.AnswerReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code bench docs DIR}: writes the answer's table from a committed run into the README and the performance page. */
@Command(name = "docs", mixinStandardHelpOptions = true, version = BenchCommand.VERSION,
        description = "Writes the summary table of the answer run in DIR (its results.json) between the"
                + " answer-table markers of README.md and docs/performance.md.")
final class DocsCommand implements Callable<Integer> {

    /** The fewest repetitions per rate whose medians the pages quote. */
    static final int MIN_REPEAT = 3;

    @Parameters(paramLabel = "DIR", description = "An answer run's directory, e.g. docs/results/2026-11-28-answer-minimal-ceiling.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (!AnswerReportWriter.isAnswer(dir)) {
            throw new IllegalArgumentException(dir + " holds no results.json of bench answer");
        }
        AnswerResults results = AnswerReportWriter.read(dir);
        if (results.interrupted()) {
            throw new IllegalArgumentException(dir + " holds an interrupted answer run: its table would be partial");
        }
        if (results.repeat() < MIN_REPEAT) {
            throw new IllegalArgumentException(dir + " holds a run of " + results.repeat() + " repetition(s) per rate"
                    + " (a first look, e.g. --quick): the pages quote medians of at least " + MIN_REPEAT);
        }
        Path committed = ProjectDir.get().resolve("docs").resolve("results").toAbsolutePath().normalize();
        if (!dir.toAbsolutePath().normalize().startsWith(committed)) {
            throw new IllegalArgumentException(dir + " is not under docs/results: the pages link only committed runs");
        }
        if (Boolean.TRUE.equals(results.environment().gitDirty())) {
            System.out.println("bench: note: " + dir + " ran from a tree with uncommitted changes");
        }
        Path project = ProjectDir.get();
        for (Map.Entry<String, Boolean> page : AnswerDocs.PAGES.entrySet()) {
            Path file = project.resolve(page.getKey());
            Files.writeString(file, AnswerDocs.replace(Files.readString(file),
                    AnswerDocs.block(results, file.getParent(), dir.toAbsolutePath(), page.getValue())));
            System.out.println("bench: wrote the answer table into " + page.getKey());
        }
        System.out.println("bench: the pages show " + AnswerDocs.chartFiles(results) + " and report.md every chart"
                + " of " + dir.resolve("charts") + ": commit them with git add -f (charts/ is ignored)");
        return 0;
    }
}
