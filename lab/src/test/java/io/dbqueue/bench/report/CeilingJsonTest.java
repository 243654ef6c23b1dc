package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.RateStep;
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
        assertThrows(IllegalArgumentException.class, () -> new Ceiling(shape, null, null));
        assertThrows(IllegalArgumentException.class, () -> new Ceiling(shape, flatOut, "skipped: no pgbench"));
        assertFalse(new Ceiling(shape, null, "skipped: no pgbench").measured());
    }

    @Test
    void theQueueIsWeighedByItsMostDelivered() {
        Ceiling ceiling = new Ceiling(shape, flatOut, null);
        assertEquals(25.0, ceiling.percentReached(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5),
                step(10_000, 10_000, 5), step(20_000, 9_000, 5))).orElseThrow(), 1e-9);
        assertTrue(ceiling.percentReached(null).isEmpty());
        assertTrue(new Ceiling(shape, null, "failed: x").percentReached(sweep(QUEUE_AT_LEAST_ONCE, shape,
                kept(1_000, 5))).isEmpty());
    }

    @Test
    void ceilingsComeBackFromResultsJsonAsWritten() throws Exception {
        AnswerShape single = new AnswerShape(1024, 1, List.of(QUEUE_AT_LEAST_ONCE), List.of(250, 500));
        AnswerResults written = withCeilings(results(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5))),
                new Ceiling(shape, flatOut, null), new Ceiling(single, null, "skipped: pgbench is not on the PATH"));
        String json = ReportWriter.JSON.writeValueAsString(written);
        assertFalse(json.contains("\"measured\""), json);
        AnswerResults read = ReportWriter.JSON.readValue(json, AnswerResults.class);
        assertEquals(written.ceilings(), read.ceilings());
        assertEquals(40_000, read.ceiling(shape).delivered());
        assertNull(read.ceiling(single).step());
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
