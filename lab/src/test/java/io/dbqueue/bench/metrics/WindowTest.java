package io.dbqueue.bench.metrics;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WindowTest {

    @Test
    void theBucketSizeIsTheNextNiceStepAboveATwentiethOfTheExpectedMessages() {
        assertEquals(List.of(1L, 5L, 10L, 20L, 500L, 1000L),
                List.of(1L, 3L, 7L, 11L, 250L, 1000L).stream().map(Window::niceStep).toList());
        assertEquals(List.of(1000L, 1001L), bucketEnds(20_000, 1000), "20,000 expected: buckets of 1,000");
        assertEquals(List.of(Window.DEFAULT_BUCKET, Window.DEFAULT_BUCKET + 1), bucketEnds(0, Window.DEFAULT_BUCKET),
                "no estimate: the default");
    }

    @Test
    void whatTheMeterCountedBeforeTheWindowOpenedIsLeftOut() {
        Meter meter = new Meter(0, 1);
        meter.enqueued(50);
        process(meter, 50);
        Window window = Window.open(meter, 0);
        meter.enqueued(30);
        process(meter, 20);
        Measurement measured = window.close(false);
        assertEquals(30, measured.enqueued());
        assertEquals(20, measured.processed());
    }

    @Test
    void aBucketClosesAtTheFirstTickPastItsBoundaryAndTheLastOneAtTheClose() {
        Meter meter = new Meter(0, 1);
        Window window = Window.open(meter, 200); // buckets of 10
        process(meter, 12);
        window.tick(); // past 10: closes at 12, the next boundary is 20
        process(meter, 5);
        window.tick(); // 17
        process(meter, 8);
        window.tick(); // past 20: closes at 25, the next boundary is 30
        process(meter, 3);
        List<LatencyBucket> buckets = window.close(false).buckets();
        assertEquals(List.of(12L, 25L, 28L), buckets.stream().map(LatencyBucket::upTo).toList());
    }

    /**
     * Where the buckets of a window expecting {@code expected} messages end when it sees one message short of
     * {@code size}, then one more, then one more before it closes: at {@code size} and at the close, if that is
     * its bucket size.
     */
    private static List<Long> bucketEnds(long expected, long size) {
        Meter meter = new Meter(0, 1);
        Window window = Window.open(meter, expected);
        process(meter, (int) size - 1);
        window.tick();
        process(meter, 1);
        window.tick();
        process(meter, 1);
        return window.close(false).buckets().stream().map(LatencyBucket::upTo).toList();
    }

    private static void process(Meter meter, int count) {
        long[] stamps = new long[count];
        Arrays.fill(stamps, System.nanoTime());
        meter.processed(stamps, count);
    }
}
