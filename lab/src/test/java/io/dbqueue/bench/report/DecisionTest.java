package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.workload.DriverName;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.NATS_JETSTREAM;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_EXACTLY_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_CLASSIC;
import static io.dbqueue.bench.report.Steps.kept;
import static io.dbqueue.bench.report.Steps.keptWithRuns;
import static io.dbqueue.bench.report.Steps.results;
import static io.dbqueue.bench.report.Steps.shape;
import static io.dbqueue.bench.report.Steps.step;
import static io.dbqueue.bench.report.Steps.sweep;
import static io.dbqueue.bench.report.Steps.withCeilings;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionTest {

    private final AnswerShape shape = shape(List.of(QUEUE_AT_LEAST_ONCE, RABBITMQ_CLASSIC, LOG_1_GROUP,
            KAFKA_FSYNC_1_GROUP));

    /** Rates of the ladder, given as they are: a ratio of two steps would claim a precision the ladder lacks. */
    @Test
    void whenABrokerHoldsMoreItSaysFromWhichRateAndWhatItHolds() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 70)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 5), kept(2_000, 5), kept(5_000, 90)))));
        assertTrue(text.contains("PostgreSQL is enough up to 1,000 messages/s here; beyond that RabbitMQ classic queue"
                + " holds 2,000."), text);
        assertFalse(text.contains("times as much"), text);
    }

    /** A capacity that one run decided says so: at the next rate the runs fell on both sides of the target. */
    @Test
    void aCapacityDecidedByRunsOnBothSidesOfTheTargetSaysSo() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), keptWithRuns(2_000, 12.3, 60.0, 197.6)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 70)))));
        assertTrue(text.contains("PostgreSQL is enough up to 1,000 messages/s here (at 2,000 its runs' p99 were"
                + " 12.3-197.6 ms, on both sides of the target)"), text);
    }

    /** The queue's best delivery mode is weighed: at batch 1 exactly once held more than at least once. */
    @Test
    void theQueueIsWeighedInTheDeliveryModeThatHoldsTheMost() {
        AnswerShape modes = shape(List.of(QUEUE_AT_LEAST_ONCE, QUEUE_EXACTLY_ONCE, RABBITMQ_CLASSIC));
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, modes, kept(1_000, 5), kept(2_000, 70)),
                sweep(QUEUE_EXACTLY_ONCE, modes, kept(1_000, 5), kept(2_000, 5), kept(5_000, 70)),
                sweep(RABBITMQ_CLASSIC, modes, kept(1_000, 5), kept(2_000, 70)))));
        assertTrue(text.contains("PostgreSQL's queue exactly once is enough up to 2,000 messages/s here:"
                + " no broker measured"), text);
    }

    /** Without a broker that flushes to compare with, PostgreSQL's figure still stands, saying so. */
    @Test
    void withOnlyABrokerThatDoesNotFlushThePostgreSqlFigureStillStands() {
        AnswerShape onlyNats = shape(List.of(QUEUE_AT_LEAST_ONCE, NATS_JETSTREAM));
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, onlyNats, kept(1_000, 5), kept(2_000, 70)),
                sweep(NATS_JETSTREAM, onlyNats, kept(1_000, 5), kept(2_000, 70)))));
        assertTrue(text.contains("PostgreSQL holds 1,000 messages/s here; no broker that also flushes before it"
                + " acknowledges was measured to compare with."), text);
    }

    /** NATS JetStream acknowledges before it flushes: it is named apart, never the broker PostgreSQL is weighed by. */
    @Test
    void aBrokerThatAcknowledgesBeforeFlushingIsNamedApart() {
        AnswerShape withNats = shape(List.of(QUEUE_AT_LEAST_ONCE, RABBITMQ_CLASSIC, NATS_JETSTREAM));
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, withNats, kept(1_000, 5), kept(2_000, 70)),
                sweep(RABBITMQ_CLASSIC, withNats, kept(1_000, 5), kept(2_000, 70)),
                sweep(NATS_JETSTREAM, withNats, kept(1_000, 5), kept(2_000, 5), kept(5_000, 90)))));
        assertTrue(text.contains("PostgreSQL is enough up to 1,000 messages/s here: no broker measured that also flushes"
                + " before it acknowledges holds more at this target. NATS JetStream holds 2,000 but acknowledges"
                + " before its data is on disk."), text);
    }

    @Test
    void whenTheQueueHoldsAsMuchItSaysNoBrokerHoldsMore() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 5), kept(5_000, 90)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 5), kept(2_000, 90)))));
        assertTrue(text.contains("PostgreSQL is enough up to 2,000 messages/s here: no broker measured that also flushes"
                + " before it acknowledges holds more"), text);
    }

    @Test
    void whenNothingHoldsTheLowestRateItSaysSo() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 70)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 90)))));
        assertTrue(text.contains("None of them holds 1,000 messages/s within the target"), text);
    }

    @Test
    void theLogIsComparedWithKafkaFlushingEveryMessage() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5)),
                sweep(LOG_1_GROUP, shape, kept(1_000, 5), kept(2_000, 5)),
                sweep(KAFKA_FSYNC_1_GROUP, shape, kept(1_000, 90)))));
        assertTrue(text.contains("With one group the log holds at least as much as Kafka flushing every message"),
                text);
        assertTrue(text.contains("The log's latency ends in the read handler, before its offset commit"), text);
        assertTrue(text.contains("No broker was measured to compare with"), text);
    }

    /** The queue's most delivered, weighed against pgbench running a minimal queue flat out in the same run. */
    @Test
    void theQueueIsWeighedAgainstItsCeiling() {
        Ceiling ceiling = Ceiling.of(shape, Steps.flatOut(), null);
        String saturated = String.join("\n", Decision.of(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), step(2_000, 1_900, 5), step(5_000, 3_000, 5))),
                ceiling)));
        assertTrue(saturated.contains("pgbench, running a minimal queue flat out on the same server, batch and"
                + " threads, delivered 40,000 messages/s (runs 38,000-41,000); the queue, at least once,"
                + " delivered at most 3,000: 8 % of pgbench's rate."), saturated);

        String stoppedEarly = String.join("\n", Decision.of(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 500))), ceiling)));
        assertTrue(stoppedEarly.contains("the queue, at least once, delivered 2,000 before its sweep ended, short of"
                + " its limit: 5 % or more of pgbench's rate."),
                stoppedEarly);

        String outran = String.join("\n", Decision.of(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), step(80_000, 50_000, 5))), ceiling)));
        assertTrue(outran.contains("delivered at most 50,000: 125 % of pgbench's rate. Over 100 %: the queue"
                + " outran PostgreSQL's own client on a minimal queue."), outran);
    }

    /** Runs before the minimal queue was the ceiling ran pgbench on the queue's statements, and say so. */
    @Test
    void anOlderCeilingRanTheQueuesStatements() {
        Ceiling statements = new Ceiling(shape, DriverName.PGBENCH, Steps.flatOut(), null);
        String outran = String.join("\n", Decision.of(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), step(80_000, 50_000, 5))), statements)));
        assertTrue(outran.contains("pgbench, running the queue's statements flat out on the same server, layout,"
                + " batch and threads, delivered 40,000 messages/s"), outran);
        assertTrue(outran.contains("125 % of pgbench's rate. Over 100 %: the library's client outran PostgreSQL's own"
                + " with the same statements."), outran);
        String table = AnswerTable.summaryMarkdown(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5))), statements));
        assertTrue(table.contains("| ceiling: PostgreSQL's own pgbench, the queue's statements | - |"), table);
    }

    @Test
    void aCeilingNotMeasuredSaysWhy() {
        String text = String.join("\n", Decision.of(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5))),
                Ceiling.of(shape, null, "skipped: pgbench is not on the PATH"))));
        assertTrue(text.contains("The ceiling of 1 KiB, batch 100 (PostgreSQL's own pgbench) was not measured:"
                + " skipped: pgbench is not on the PATH."), text);
    }

    /** The summary table, as the README shows it, gives the ceiling a row of its own. */
    @Test
    void theSummaryTableHasTheCeilingsRow() {
        String table = AnswerTable.summaryMarkdown(withCeilings(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), step(2_000, 1_500, 5))),
                Ceiling.of(shape, Steps.flatOut(), null)));
        assertTrue(table.contains("| PostgreSQL queue, at least once | 1,000 | 1,500 |"), table);
        assertTrue(table.contains("| ceiling: PostgreSQL's own pgbench, a minimal queue | - | 40,000 | - |"), table);
    }
}
