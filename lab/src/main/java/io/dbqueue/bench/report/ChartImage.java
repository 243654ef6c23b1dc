package io.dbqueue.bench.report;

/** A rendered chart: its title, its file under the output directory (e.g. {@code charts/x.png}) and the PNG bytes. */
public record ChartImage(String title, String path, byte[] png) {
}
