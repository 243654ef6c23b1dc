package io.dbqueue.bench.metrics;

/**
 * Message bodies that carry their enqueue time: {@code <System.nanoTime()>;xxxx...} padded to the
 * workload's message size. A stamp of 0 marks a message that is not measured (the pre-filled backlog).
 */
public final class Payloads {

    private final String padding;

    public Payloads(int messageSize) {
        this.padding = "x".repeat(messageSize);
    }

    public String create(long enqueueNanos) {
        String stamp = Long.toString(enqueueNanos);
        return stamp + ';' + padding.substring(Math.min(padding.length(), stamp.length() + 1));
    }

    /** The pre-filled backlog's body, built by SQL: the same size, never measured. */
    public String unmeasuredSql() {
        return "'0;' || repeat('x', " + Math.max(0, padding.length() - 2) + ")";
    }

    public static long stamp(String payload) {
        int end = payload.indexOf(';');
        return end <= 0 ? 0 : Long.parseLong(payload, 0, end, 10);
    }
}
