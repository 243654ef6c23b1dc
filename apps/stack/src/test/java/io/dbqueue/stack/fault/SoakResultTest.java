package io.dbqueue.stack.fault;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soak's arithmetic: trends by least squares, and what counts as steady and flat. */
class SoakResultTest {

    @Test
    void theSlopeIsTheLeastSquaresFit() {
        assertEquals(2.0, Slope.of(new double[]{0, 1, 2, 3}, new double[]{1, 3, 5, 7}), 1e-9);
        assertEquals(0.0, Slope.of(new double[]{0, 1, 2}, new double[]{5, 5, 5}), 1e-9);
        assertEquals(-0.5, Slope.of(new double[]{0, 2, 4}, new double[]{4, 3.2, 2}), 0.06);
        assertEquals(0.0, Slope.of(new double[]{1, 1}, new double[]{0, 9}), 1e-9, "no spread in x: no trend");
        assertThrows(IllegalArgumentException.class, () -> Slope.of(new double[]{1}, new double[]{1, 2}));
    }

    @Test
    void steadyAndFlatPasses() {
        assertEquals(List.of(), SoakResult.problems(List.of(60_000L, 59_000L, 61_500L), Map.of("consumer-app-1", 0.3),
                0.1, 0, 0));
    }

    @Test
    void everyDeviationIsNamed() {
        List<String> problems = SoakResult.problems(List.of(60_000L, 53_000L, 60_000L),
                Map.of("consumer-app-1", 2.5, "test-app", 1.0), 0.8, 3, 2);
        assertEquals(List.of("minute 2 processed 53000, more than 10 % from the first's 60000",
                "consumer-app-1's memory grows 2.50 MB/min", "the queue table grows 0.80 MB/min",
                "3 ERROR lines in the services' logs", "2 acknowledged messages never processed"), problems);
        assertTrue(SoakResult.problems(List.of(1L), Map.of(), 0, 0, 0).contains("fewer than two whole minutes measured"));
    }

    @Test
    void theLineGivesTheRangeAndTheTrends() {
        SoakResult result = new SoakResult(List.of(60_000L, 59_000L, 61_500L), Map.of("test-app", 0.25),
                Map.of("test-app", 310.4), 0.05, 2.3, 0, 180_500, 0, List.of());
        assertEquals("soak PASS: 3 minutes, processed per minute first 60000, min 59000, max 61500; memory test-app 310 MB"
                + " (+0.25 MB/min); queue table 2.3 MB (+0.05 MB/min); 0 ERROR lines; acknowledged 180500, lost 0",
                result.line());
    }
}
