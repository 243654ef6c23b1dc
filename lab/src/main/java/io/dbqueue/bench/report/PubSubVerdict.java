package io.dbqueue.bench.report;

import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.workload.DriverName;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The pub/sub part of the verdict: the log's best cell against Kafka's, both ways of flushing,
 * measured in the same run. Rates are the write rate and the read rate over all groups; the ratio
 * is the log's read rate over Kafka's.
 */
final class PubSubVerdict {

    private static final List<DriverName> KAFKA = List.of(DriverName.KAFKA, DriverName.KAFKA_FSYNC);

    private PubSubVerdict() {
    }

    static List<String> text(List<CellResult> runs, boolean paced) {
        Optional<CellResult> log = best(runs, DriverName.LOG);
        List<String> text = new ArrayList<>();
        log.ifPresent(l -> text.add(String.format(Locale.ROOT, "Pub/sub: the log wrote %s and read %s messages/s"
                        + " (all groups together), p99 %.1f ms from write to read.", Verdict.number(writes(l)),
                Verdict.number(reads(l)), Verdict.p99(l, paced))));
        for (DriverName driver : KAFKA) {
            best(runs, driver).ifPresent(k -> text.add(String.format(Locale.ROOT, "Kafka (%s) wrote %s and read %s"
                            + " messages/s, p99 %.1f ms%s.", flush(driver), Verdict.number(writes(k)),
                    Verdict.number(reads(k)), Verdict.p99(k, paced), log.map(l -> String.format(Locale.ROOT,
                            ": the log read %.0f %% of its rate", 100 * reads(l) / Math.max(1, reads(k)))).orElse(""))));
        }
        log.flatMap(l -> best(runs, KAFKA.get(0)).map(k -> advice(l, k))).ifPresent(text::add);
        return text;
    }

    private static String advice(CellResult log, CellResult kafka) {
        double ratio = reads(log) / Math.max(1, reads(kafka));
        if (ratio >= 0.9) {
            return "On this machine the PostgreSQL log carried this fan-out about as well as Kafka without per-message"
                    + " fsync, and every message it acknowledged was on disk: a service that already runs PostgreSQL"
                    + " needs no broker for it.";
        }
        return String.format(Locale.ROOT, "Kafka read %.1f times the log's rate here: if the load is near %s"
                        + " messages/s written, or must grow past it, Kafka is the better choice on this hardware.",
                1 / ratio, Verdict.number(writes(log)));
    }

    private static String flush(DriverName driver) {
        return driver == DriverName.KAFKA ? "its default: the OS flushes" : "an fsync before each acknowledgement";
    }

    private static Optional<CellResult> best(List<CellResult> runs, DriverName driver) {
        return runs.stream().filter(r -> r.driver() == driver).max(Comparator.comparingDouble(PubSubVerdict::reads));
    }

    private static double reads(CellResult cell) {
        return cell.throughput().median();
    }

    private static double writes(CellResult cell) {
        return cell.enqueueThroughput().median();
    }
}
