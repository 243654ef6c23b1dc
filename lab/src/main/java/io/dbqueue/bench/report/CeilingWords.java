package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.workload.DriverName;

/** How the report words a ceiling, by what pgbench ran: a minimal queue, or in the first runs the queue's statements. */
enum CeilingWords {

    MINIMAL("a minimal queue", "a minimal queue", "batch and threads",
            "a minimal queue of its own (id, payload and time, one index; the producers' batched insert of payloads"
                    + " the server builds, the consumers' claiming delete, each commit waiting for its WAL flush, which"
                    + " the queue's claim and finish at least once skip) on the same server",
            "a claim that keeps a message until it is finished (a second statement), its table's columns for"
                    + " attempts, leases and due times, payloads sent by the client, ",
            "the queue outran PostgreSQL's own client on a minimal queue."),
    STATEMENTS("the queue's statements", "the queue's at least once statements", "layout, batch and threads",
            "the statements the queue runs at least once (the producers' batched insert, the consumers' claim and"
                    + " finish) on the same server and layout",
            "",
            "the library's client outran PostgreSQL's own with the same statements.");

    /** What pgbench ran, short: in the tables' row names and the decision. */
    final String ran;
    /** What pgbench ran, in the shape table's setup cell. */
    final String setup;
    /** What it shared with the queue besides the server. */
    final String same;
    /** What pgbench ran, in the methods paragraph. */
    final String method;
    /** What the library adds beyond JDBC, the JVM, its bookkeeping and its wakeups; "" or ending in ", ". */
    final String adds;
    /** Why the queue may deliver over 100 % of it. */
    final String outran;

    CeilingWords(String ran, String setup, String same, String method, String adds, String outran) {
        this.ran = ran;
        this.setup = setup;
        this.same = same;
        this.method = method;
        this.adds = adds;
        this.outran = outran;
    }

    static CeilingWords of(Ceiling ceiling) {
        return ceiling.driver() == DriverName.PGBENCH ? STATEMENTS : MINIMAL;
    }
}
