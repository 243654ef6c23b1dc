package io.dbqueue.bench.cli;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.report.AnswerReportWriter;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bench answer --quick} end to end on the embedded server: every system of the quick plan is
 * swept or skipped with its reason, and the report gives the decision, the tables and the charts.
 */
class AnswerCommandTest {

    @Test
    void theQuickAnswerSweepsEverySystemAndWritesTheDecision(@TempDir Path out) throws Exception {
        StringWriter console = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"answer", "--quick", "--out", out.toString()},
                new PrintWriter(console, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        AnswerResults results = AnswerReportWriter.read(out);
        assertEquals(5, results.sweeps().size());
        for (Sweep sweep : results.sweeps()) {
            assertTrue(sweep.measured() || sweep.note().startsWith("skipped: "), sweep.toString());
        }
        Sweep queue = results.sweeps().get(0);
        assertTrue(queue.measured(), queue.toString());
        assertTrue(queue.steps().get(0).keptUp(), "the queue keeps up with 1,000 messages/s: " + queue);
        assertTrue(queue.steps().get(0).serverCpuUs().median() > 0, queue.toString());

        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## The answer\n\nWith 1 KiB, batch 100 at p99 ≤ 50 ms: PostgreSQL"
                + " queue, at least once "), report);
        assertTrue(report.contains("A first look, not the answer: every rate ran once"), report);
        for (Sweep sweep : results.sweeps()) { // every broker measured names its server
            if (sweep.measured() && !sweep.system().onPostgres()) {
                assertTrue(results.servers().containsKey(sweep.system().id()), results.servers().toString());
            }
        }
        Ceiling ceiling = results.ceiling(queue.shape()); // pgbench ran a minimal queue flat out, or says why not
        assertTrue(ceiling.measured() || ceiling.note().startsWith("skipped: "), ceiling.toString());
        if (ceiling.measured()) {
            assertTrue(ceiling.delivered() > queue.steps().get(0).delivered().median(), ceiling.toString());
            assertEquals(DriverName.PGBENCH_MINIMAL, ceiling.driver());
            assertTrue(report.contains("PostgreSQL's own client, pgbench, running a minimal queue flat out"), report);
        }
        assertTrue(Files.size(out.resolve("charts/answer-p99-1kib-batch100.png")) > 0);
        assertTrue(Files.size(out.resolve("charts/answer-delivered-1kib-batch100.png")) > 0);
    }

    @Test
    void anUnknownSystemIsABadArgument() {
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"answer", "--systems", "activemq"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(BenchMain.ExitCodes.USAGE, code);
        assertTrue(err.toString().contains("unknown system 'activemq'"), err.toString());
        assertFalse(err.toString().contains("Exception"), err.toString());
    }
}
