package io.dbqueue.bench.enqueue;

import io.dbqueue.bench.run.Range;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes the same rows with each {@link EnqueueMethod}, one connection, one auto-committed statement
 * per batch, into a freshly created queue table; the methods take turns within every repetition so
 * that drift in the machine's load hits them alike.
 */
public final class EnqueueComparison {

    private static final QueueTable TABLE = new QueueTable("bench_enqueue", Layout.DBQ_SEQ);
    private static final String PAYLOAD = "x".repeat(100);

    private final DataSource dataSource;
    private final int rows;
    private final int repeat;

    public EnqueueComparison(DataSource dataSource, int rows, int repeat) {
        this.dataSource = dataSource;
        this.rows = rows;
        this.repeat = repeat;
    }

    public List<EnqueueSample> run(List<Integer> batchSizes, Consumer<String> progress) throws SQLException {
        List<EnqueueSample> samples = new ArrayList<>();
        for (int batchSize : batchSizes) {
            Map<EnqueueMethod, List<Double>> runs = new EnumMap<>(EnqueueMethod.class);
            for (int r = 0; r < repeat; r++) {
                for (EnqueueMethod method : EnqueueMethod.values()) {
                    double perSecond = measure(method, batchSize);
                    runs.computeIfAbsent(method, m -> new ArrayList<>()).add(perSecond);
                    progress.accept(String.format("%s batch %d run %d/%d: %.0f rows/s", method.label(), batchSize,
                            r + 1, repeat, perSecond));
                }
            }
            runs.forEach((method, values) -> samples.add(new EnqueueSample(method.label(), batchSize, Range.of(values), values)));
        }
        Schema.drop(dataSource, TABLE);
        return samples;
    }

    private double measure(EnqueueMethod method, int batchSize) throws SQLException {
        Schema.recreate(dataSource, TABLE);
        List<String> batch = Collections.nCopies(batchSize, PAYLOAD);
        int batches = Math.max(1, rows / batchSize);
        try (Connection c = dataSource.getConnection()) {
            try (Statement st = c.createStatement()) {
                st.execute("CHECKPOINT");
            }
            c.setAutoCommit(true);
            long start = System.nanoTime();
            for (int i = 0; i < batches; i++) {
                method.write(c, TABLE.name(), "bench", batch);
            }
            return (double) batches * batchSize / ((System.nanoTime() - start) / 1e9);
        }
    }

}
