package io.dbqueue.bench.cli;

import io.dbqueue.bench.report.Results;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bench}: the lab's command; {@code bench run} runs the matrix. */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = {RunCommand.class, AnswerCommand.class,
        ReportCommand.class, DocsCommand.class, EnqueueMethodsCommand.class, SlowHandlersCommand.class,
        CoalescingCommand.class, ScenarioCommand.class},
        version = BenchCommand.VERSION,
        description = "The db-queue lab: measures PostgreSQL queue layouts, batch sizes and drivers and writes a report.")
final class BenchCommand implements Runnable {

    static final String VERSION = "bench, the db-queue lab (results.json schema " + Results.SCHEMA_VERSION + ")";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
