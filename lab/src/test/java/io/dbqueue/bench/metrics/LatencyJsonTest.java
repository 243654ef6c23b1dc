package io.dbqueue.bench.metrics;

import io.dbqueue.bench.run.LatencyRange;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How results.json writes latency: a repetition's six figures, and a cell's range of each over its repetitions. */
class LatencyJsonTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aRepetitionWritesItsSixFiguresByNameInOrder() {
        LatencySummary latency = new LatencySummary(0.5, 2.25, 2, 7, 9.5, 12);

        assertEquals("{\"min\":0.5,\"avg\":2.25,\"p50\":2.0,\"p95\":7.0,\"p99\":9.5,\"max\":12.0}",
                json.writeValueAsString(latency));
    }

    @Test
    void aCellWritesEachFigureAsTheMedianAndRangeOfItsRepetitions() {
        LatencyRange range = LatencyRange.of(List.of(new LatencySummary(1, 2, 3, 4, 5, 6),
                new LatencySummary(3, 4, 5, 6, 7, 8), LatencySummary.NONE));

        assertEquals("{\"min\":{\"median\":2.0,\"min\":1.0,\"max\":3.0},\"avg\":{\"median\":3.0,\"min\":2.0,\"max\":4.0},"
                        + "\"p50\":{\"median\":4.0,\"min\":3.0,\"max\":5.0},\"p95\":{\"median\":5.0,\"min\":4.0,\"max\":6.0},"
                        + "\"p99\":{\"median\":6.0,\"min\":5.0,\"max\":7.0},\"max\":{\"median\":7.0,\"min\":6.0,\"max\":8.0}}",
                json.writeValueAsString(range));
    }

    @Test
    void nothingMeasuredIsWrittenAsNull() {
        assertEquals("null", json.writeValueAsString(LatencySummary.NONE));
        assertEquals("null", json.writeValueAsString(LatencyRange.of(List.of(LatencySummary.NONE))));
    }
}
