package io.dbqueue.bench.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliErrorsTest {

    @Test
    void unknownLayoutIsAUsageErrorNamingIt() {
        Outcome outcome = run("run", "--layouts", "queue_tasks_1,queue_tasks_9");
        assertEquals(2, outcome.code);
        assertOneLine(outcome.err, "unknown layout 'queue_tasks_9'");
    }

    @Test
    void batchSizeZeroIsAUsageError() {
        Outcome outcome = run("run", "--batch-sizes", "10,0");
        assertEquals(2, outcome.code);
        assertOneLine(outcome.err, "batch size must be between 1 and 10000, was 0");
    }

    @Test
    void malformedFlagIsAUsageError() {
        Outcome outcome = run("run", "--repeat", "three");
        assertEquals(2, outcome.code);
        assertOneLine(outcome.err, "'three' is not an int");
    }

    @Test
    void unreachableJdbcUrlFailsWithOneLine() {
        Outcome outcome = run("run", "--profile", "quick", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none",
                "--out", "target/never-written");
        assertEquals(1, outcome.code);
        assertOneLine(outcome.err, "cannot connect to PostgreSQL at jdbc:postgresql://127.0.0.1:1/none");
    }

    @Test
    void enqueueMethodsRejectsBatchSizeZero() {
        Outcome outcome = run("enqueue-methods", "--batch-sizes", "0");
        assertEquals(2, outcome.code);
        assertOneLine(outcome.err, "--batch-sizes must be between 1 and 10000, was [0]");
    }

    private static void assertOneLine(String err, String expected) {
        assertEquals(1, err.lines().count(), "one line expected, got: " + err);
        assertTrue(err.startsWith("bench: "), err);
        assertTrue(err.contains(expected), "expected '" + expected + "' in: " + err);
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, err.toString());
    }

    private record Outcome(int code, String err) {
    }
}
