package io.dbqueue.bench.metrics;

/** A window's cost spread over its messages, as results.json gives it. */
final class PerMessage {

    private PerMessage() {
    }

    /** {@code amount / messages} to one decimal; 0 when no message was processed. */
    static double of(double amount, long messages) {
        return messages == 0 ? 0 : Math.round(10.0 * amount / messages) / 10.0;
    }

    /** CPU microseconds per message for {@code cpuSeconds}. */
    static double cpuMicros(double cpuSeconds, long messages) {
        return of(cpuSeconds * 1e6, messages);
    }

    /** Percent of one core for {@code cpuSeconds} over {@code seconds}, to one decimal. */
    static double cpuPercent(double cpuSeconds, double seconds) {
        return seconds <= 0 ? 0 : Math.round(1000 * cpuSeconds / seconds) / 10.0;
    }
}
