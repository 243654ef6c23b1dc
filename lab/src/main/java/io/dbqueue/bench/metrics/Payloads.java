package io.dbqueue.bench.metrics;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Message bodies that carry their enqueue time: {@code <System.nanoTime()>;<filler>} padded to the
 * workload's message size. A stamp of 0 marks a message that is not measured (the pre-filled backlog).
 * The filler is random letters and digits, drawn once per instance: a repeated character would let
 * PostgreSQL's TOAST (and a broker's compression) shrink a large message to a few hundred bytes, so
 * that it would cost far less than its size on disk.
 */
public final class Payloads {

    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final String filler;

    public Payloads(int messageSize) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder filler = new StringBuilder(messageSize);
        for (int i = 0; i < messageSize; i++) {
            filler.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        this.filler = filler.toString();
    }

    public String create(long enqueueNanos) {
        String stamp = Long.toString(enqueueNanos);
        return stamp + ';' + filler.substring(Math.min(filler.length(), stamp.length() + 1));
    }

    /**
     * The pre-filled backlog's body as an SQL expression: the same size and filler, never measured.
     * Every row gets the same filler, which TOAST cannot use: it compresses each value alone.
     */
    public String unmeasuredSql() {
        return "'" + create(0) + "'";
    }

    public static long stamp(String payload) {
        int end = payload.indexOf(';');
        return end <= 0 ? 0 : Long.parseLong(payload, 0, end, 10);
    }
}
