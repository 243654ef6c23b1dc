package io.dbqueue.stack.fault;

/** The least-squares slope of y over x, for the soak's trends (MB per minute). */
final class Slope {

    private Slope() {
    }

    /** The slope of the line that fits the points best; 0 for fewer than two distinct x. */
    static double of(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y must be as long, were " + x.length + " and " + y.length);
        }
        int n = x.length;
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += x[i] / n;
            meanY += y[i] / n;
        }
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++) {
            covariance += (x[i] - meanX) * (y[i] - meanY);
            variance += (x[i] - meanX) * (x[i] - meanX);
        }
        return variance == 0 ? 0 : covariance / variance;
    }
}
