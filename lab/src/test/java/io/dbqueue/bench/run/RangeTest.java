package io.dbqueue.bench.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a range of repeated measurements is stated in the reports: with one run there is no range to give. */
class RangeTest {

    @Test
    void severalRunsGiveTheMedianWithTheirCountAndRange() {
        Range range = Range.of(List.of(1350.4, 1200.0, 1275.6));

        assertEquals(new Range(1275.6, 1200.0, 1350.4), range);
        assertEquals("median of 3, range 1,200-1,350", range.describe(3));
        assertEquals("1,200-1,350", range.minMax(3));
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwo() {
        Range range = Range.of(List.of(40_000.0, 10_000.0, 30_000.0, 20_000.0));

        assertEquals(25_000.0, range.median());
        assertEquals("median of 4, range 10,000-40,000", range.describe(4));
    }

    @Test
    void oneRunIsSaidSoWithoutARange() {
        Range range = Range.of(List.of(50_399.0));

        assertEquals("one run", range.describe(1));
        assertEquals("one run", range.minMax(1));
        assertEquals(0.0, range.spreadPercent());
    }

    @Test
    void equalRunsStillGiveTheirRange() {
        Range range = Range.of(List.of(900.0, 900.0));

        assertEquals("median of 2, range 900-900", range.describe(2));
    }
}
