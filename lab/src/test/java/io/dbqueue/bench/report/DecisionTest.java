package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.Sweep;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_CLASSIC;
import static io.dbqueue.bench.report.Steps.kept;
import static io.dbqueue.bench.report.Steps.results;
import static io.dbqueue.bench.report.Steps.shape;
import static io.dbqueue.bench.report.Steps.sweep;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionTest {

    private final AnswerShape shape = shape(List.of(QUEUE_AT_LEAST_ONCE, RABBITMQ_CLASSIC, LOG_1_GROUP,
            KAFKA_FSYNC_1_GROUP));

    @Test
    void whenABrokerHoldsMoreItSaysFromWhichRateAndByHowMuch() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 70)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 5), kept(2_000, 5), kept(5_000, 90)))));
        assertTrue(text.contains("PostgreSQL is enough up to 1,000 messages/s here; beyond that RabbitMQ classic queue"
                + " holds 2,000 (2.0 times as much)"), text);
    }

    @Test
    void whenTheQueueHoldsAsMuchItSaysNoBrokerHoldsMore() {
        String text = String.join("\n", Decision.of(results(
                sweep(QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), kept(2_000, 5), kept(5_000, 90)),
                sweep(RABBITMQ_CLASSIC, shape, kept(1_000, 5), kept(2_000, 90)))));
        assertTrue(text.contains("PostgreSQL is enough up to 2,000 messages/s here: no broker measured holds more"),
                text);
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
        assertTrue(text.contains("No broker was measured to compare with"), text);
    }
}
