package io.dbqueue.bench.cli;

import io.dbqueue.bench.report.AnswerReportWriter;
import io.dbqueue.bench.report.ReportWriter;
import io.dbqueue.bench.report.ResultsReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code bench report DIR}: the report of a run again, from its results.json, with today's statistics. */
@Command(name = "report", mixinStandardHelpOptions = true, version = BenchCommand.VERSION,
        description = "Regenerates report.md, report.html, results.csv and the charts of a bench run's output"
                + " directory from its results.json (of any schema version), the cells' figures derived again from"
                + " the repetitions' samples; or the report and charts of a bench answer run. results.json is left as"
                + " it is.")
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", description = "A directory bench run or bench answer wrote, with its results.json.")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ReportWriter.prepare();
        if (AnswerReportWriter.isAnswer(dir)) {
            AnswerReportWriter.render(dir, AnswerReportWriter.read(dir));
        } else {
            ReportWriter.writeReport(dir, ResultsReader.read(dir));
        }
        spec.commandLine().getOut().println("bench: wrote " + dir.resolve("report.md") + ", "
                + dir.resolve("report.html") + " and " + dir.resolve("charts"));
        return 0;
    }
}
