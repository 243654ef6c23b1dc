package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.report.Steps.kept;
import static io.dbqueue.bench.report.Steps.results;
import static io.dbqueue.bench.report.Steps.shape;
import static io.dbqueue.bench.report.Steps.step;
import static io.dbqueue.bench.report.Steps.sweep;
import static io.dbqueue.bench.report.Steps.withCeilings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answer's ceilings: what they hold, how they weigh the queue, and their round trip through results.json. */
class CeilingJsonTest {

    private final AnswerShape shape = shape(List.of(QUEUE_AT_LEAST_ONCE));
    private final RateStep flatOut = Steps.flatOut();

    @Test
    void aCeilingHasAStepOrANoteSayingWhyNot() {
        assertThrows(IllegalArgumentException.class, () -> Ceiling.of(shape, null, null));
        assertThrows(IllegalArgumentException.class, () -> Ceiling.of(shape, flatOut, "skipped: no pgbench"));
        assertFalse(Ceiling.of(shape, null, "skipped: no pgbench").measured());
    }

    @Test
    void aCeilingIsRunByPgbench() {
        assertEquals(DriverName.PGBENCH_MINIMAL, Ceiling.of(shape, flatOut, null).driver());
        assertEquals("a ceiling is run by pgbench or pgbench-minimal, not direct", assertThrows(
                IllegalArgumentException.class, () -> new Ceiling(shape, DriverName.DIRECT, flatOut, null)).getMessage());
    }

    @Test
    void theQueueIsWeighedByItsMostDelivered() {
        Ceiling ceiling = Ceiling.of(shape, flatOut, null);
        assertEquals(25.0, ceiling.percentReached(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5),
                step(10_000, 10_000, 5), step(20_000, 9_000, 5))).orElseThrow(), 1e-9);
        assertTrue(ceiling.percentReached(null).isEmpty());
        assertTrue(Ceiling.of(shape, null, "failed: x").percentReached(sweep(QUEUE_AT_LEAST_ONCE, shape,
                kept(1_000, 5))).isEmpty());
    }

    @Test
    void ceilingsComeBackFromResultsJsonAsWritten() throws Exception {
        AnswerShape single = new AnswerShape(1024, 1, List.of(QUEUE_AT_LEAST_ONCE), List.of(250, 500));
        AnswerResults written = withCeilings(results(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5))),
                Ceiling.of(shape, flatOut, null), Ceiling.of(single, null, "skipped: pgbench is not on the PATH"));
        String json = ReportWriter.JSON.writeValueAsString(written);
        assertFalse(json.contains("\"measured\""), json);
        assertTrue(json.contains("\"driver\" : \"pgbench-minimal\""), json);
        AnswerResults read = ReportWriter.JSON.readValue(json, AnswerResults.class);
        assertEquals(written.ceilings(), read.ceilings());
        assertEquals(40_000, read.ceiling(shape).delivered());
        assertNull(read.ceiling(single).step());
    }

    /** Until the minimal queue was the ceiling, pgbench ran the queue's statements, and results.json named no driver. */
    @Test
    void ceilingsWrittenWithoutADriverRanTheQueuesStatements() {
        ObjectNode json = ReportWriter.JSON.valueToTree(withCeilings(results(sweep(QUEUE_AT_LEAST_ONCE, shape,
                kept(1_000, 5))), Ceiling.of(shape, flatOut, null)));
        ((ObjectNode) json.get("ceilings").get(0)).remove("driver");
        Ceiling read = ReportWriter.JSON.treeToValue(json, AnswerResults.class).ceiling(shape);
        assertEquals(DriverName.PGBENCH, read.driver());
        assertEquals("the queue's statements", CeilingWords.of(read).ran);
    }

    /** The report says what pgbench ran, in the shape's table and in its methods, for either kind of ceiling. */
    @Test
    void theReportSaysWhatPgbenchRan() {
        AnswerResults results = results(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5)));
        AnswerResults minimal = withCeilings(results, Ceiling.of(shape, flatOut, null));
        AnswerResults statements = withCeilings(results, new Ceiling(shape, DriverName.PGBENCH, flatOut, null));

        assertTrue(shapeTable(minimal).contains("| ceiling: PostgreSQL's own pgbench, a minimal queue | - | - | - |"
                + " 40,000 | - | - | - | pgbench runs a minimal queue with the same batch and threads, flat out;"),
                shapeTable(minimal));
        assertTrue(shapeTable(statements).contains("| pgbench runs the queue's at least once statements with the same"
                + " layout, batch and threads, flat out;"), shapeTable(statements));

        assertTrue(AnswerReportWriter.ceilingMethod(minimal).startsWith("The ceiling is PostgreSQL's own client,"
                + " pgbench, running a minimal queue of its own (id, payload and time, one index;"));
        assertTrue(AnswerReportWriter.ceilingMethod(minimal).endsWith("what the library adds: a claim that keeps a"
                + " message until it is finished (a second statement), its table's columns for attempts, leases and"
                + " due times, payloads sent by the client, JDBC, the JVM, its bookkeeping and its wakeups."));
        assertTrue(AnswerReportWriter.ceilingMethod(statements).startsWith("The ceiling is PostgreSQL's own client,"
                + " pgbench, running the statements the queue runs at least once"));
        assertTrue(AnswerReportWriter.ceilingMethod(statements).endsWith("what the library adds: JDBC, the JVM, its"
                + " bookkeeping and its wakeups."));
    }

    private String shapeTable(AnswerResults results) {
        Document doc = new Document();
        AnswerTable.shape(doc, results, shape);
        return MarkdownRenderer.render(doc);
    }

    @Test
    void resultsWrittenBeforeTheCeilingHaveNone() {
        ObjectNode json = ReportWriter.JSON.valueToTree(results(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5))));
        json.remove("ceilings");
        AnswerResults read = ReportWriter.JSON.treeToValue(json, AnswerResults.class);
        assertNull(read.ceilings());
        assertNull(read.ceiling(shape));
    }
}
