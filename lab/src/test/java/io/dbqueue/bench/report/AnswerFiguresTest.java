package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.run.Range;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_CLASSIC;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_QUORUM;
import static io.dbqueue.bench.report.Steps.kept;
import static io.dbqueue.bench.report.Steps.results;
import static io.dbqueue.bench.report.Steps.shape;
import static io.dbqueue.bench.report.Steps.step;
import static io.dbqueue.bench.report.Steps.sweep;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AnswerFiguresTest {

    private final AnswerShape shape = shape(List.of(QUEUE_AT_LEAST_ONCE, RABBITMQ_CLASSIC, RABBITMQ_QUORUM));

    @Test
    void capacitiesAreStatedWithTheirLimits() {
        assertEquals("under 1,000", AnswerFigures.capacity(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 60)), 50));
        assertEquals("10,000 or more", AnswerFigures.capacity(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5),
                kept(2_000, 5), kept(5_000, 5), kept(10_000, 5)), 50));
        assertEquals("10,000 or more", AnswerFigures.saturation(sweep(QUEUE_AT_LEAST_ONCE, shape, kept(10_000, 5))));
        assertEquals("skipped", AnswerFigures.capacity(new Sweep(RABBITMQ_CLASSIC, shape, List.of(),
                "skipped: RabbitMQ is not reachable"), 50));
        assertEquals("failed", AnswerFigures.capacity(new Sweep(RABBITMQ_CLASSIC, shape, List.of(),
                "failed at 1000 messages/s: boom"), 50));
        assertEquals("-", AnswerFigures.capacity(null, 50), "a system the shape does not include");
        assertEquals("2,000, then failed at 5,000 messages/s", AnswerFigures.capacity(new Sweep(RABBITMQ_CLASSIC, shape,
                List.of(kept(1_000, 5), kept(2_000, 5)), "failed at 5,000 messages/s: connection reset"), 50),
                "a sweep that broke off: the rates it did not reach might have been held");
        assertEquals("1,000", AnswerFigures.capacity(new Sweep(RABBITMQ_CLASSIC, shape,
                List.of(kept(1_000, 5), kept(2_000, 90)), "failed at 5,000 messages/s: connection reset"), 50),
                "a rate below the break missed the target already: the break decides nothing");
    }

    @Test
    void costsAreComparedAtTheHighestRateEverySystemKeptUp() {
        AnswerResults results = results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 5), kept(5_000, 5)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 5), kept(2_000, 300), step(5_000, 3_000, 900)),
                // a system that never kept up the lowest rate does not hold the others' costs down to nothing
                sweep(RABBITMQ_QUORUM, shape, step(1_000, 500, 900)));
        assertEquals(2_000, AnswerFigures.commonRate(results, shape));
    }

    @Test
    void repetitionsWithinASpreadAreCountedOverTheRatesRunMoreThanOnce() {
        RateStep close = new RateStep(1_000, 3, Range.of(List.of(1_000.0)), Range.of(List.of(1_000.0)), null,
                Range.of(List.of(10.0, 11.0, 11.4)), null, null, null);
        RateStep apart = new RateStep(2_000, 3, Range.of(List.of(2_000.0)), Range.of(List.of(2_000.0)), null,
                Range.of(List.of(10.0, 12.0, 20.0)), null, null, null);
        RateStep once = new RateStep(5_000, 1, Range.of(List.of(5_000.0)), Range.of(List.of(5_000.0)), null,
                Range.of(List.of(50.0)), null, null, null);
        Sweep sweep = new Sweep(QUEUE_AT_LEAST_ONCE, shape, List.of(close, apart, once), null);
        assertEquals("1 of 2", AnswerFigures.within(List.of(sweep), RateStep::p99Ms, 15));
        assertEquals("2 of 2", AnswerFigures.within(List.of(sweep), RateStep::delivered, 15));
    }
}
