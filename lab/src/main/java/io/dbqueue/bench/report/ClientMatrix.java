package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The "Enqueuers x dequeuers" table of a run that sweeps producers and consumers: per driver, layout,
 * batch size and combination, the median enqueue and dequeue rates side by side, so that a reader sees
 * where dequeueing falls behind.
 */
final class ClientMatrix {

    static final List<String> HEADER = List.of("driver", "layout", "batch", "producers", "consumers", "enqueued/s",
            "dequeued/s", "dequeued / enqueued %");

    private ClientMatrix() {
    }

    /** Whether the run measured more than one combination of producers and consumers. */
    static boolean sweeps(List<CellResult> runs) {
        return runs.stream().map(r -> List.of(r.producers(), r.consumers())).distinct().count() > 1;
    }

    /** A row per cell, grouped by driver, layout and batch size (in the run's order), then by producers and consumers. */
    static List<List<String>> rows(List<CellResult> runs) {
        List<String> groups = runs.stream().map(ClientMatrix::group).distinct().toList();
        return runs.stream()
                .sorted(Comparator.comparingInt((CellResult r) -> groups.indexOf(group(r)))
                        .thenComparingInt(CellResult::producers).thenComparingInt(CellResult::consumers))
                .map(r -> List.of(r.driver().toString(), r.layout(), Integer.toString(r.batchSize()),
                        Integer.toString(r.producers()), Integer.toString(r.consumers()),
                        number(r.enqueueThroughput().median()), number(r.throughput().median()),
                        r.enqueueThroughput().median() == 0 ? "-" : String.format(Locale.ROOT, "%.0f",
                                100 * r.throughput().median() / r.enqueueThroughput().median())))
                .toList();
    }

    static void add(Document doc, List<CellResult> runs) {
        if (!sweeps(runs)) {
            return;
        }
        doc.heading(2, "Enqueuers x dequeuers");
        doc.paragraph("Per combination of producer and consumer threads, the median over the repetitions of the"
                + " messages enqueued and dequeued (processed) per second. Dequeued below enqueued: the consumers fall"
                + " behind and the backlog grows until the producers hold back at max_backlog. A pub/sub cell's"
                + " dequeue rate is summed over its groups.");
        doc.table(HEADER, rows(runs));
    }

    private static String group(CellResult r) {
        return r.driver() + " " + r.layout() + " " + r.batchSize();
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
