package io.dbqueue.bench.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every bad argument ends the command with one line naming what was wrong, and a non-zero status. */
class CliErrorsTest {

    private static final String UNREACHABLE = "--profile quick --jdbc-url jdbc:postgresql://127.0.0.1:1/none"
            + " --out target/never-written";

    /** Status 2 is a usage error; 1 a failure to run (here: no server). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "run --layouts queue_tasks_1,queue_tasks_9 | 2 | unknown layout 'queue_tasks_9'",
            "run --batch-sizes 10,0 | 2 | batch size must be between 1 and 10000, was 0",
            "run --repeat three | 2 | 'three' is not an int",
            "run --mode twice | 2 | mode must be one of at-least-once, exactly-once, at-most-once, was 'twice'",
            "run --stack-concurrency 0 | 2 | stack.concurrency must be at least 1, was 0",
            "enqueue-methods --batch-sizes 0 | 2 | --batch-sizes must be between 1 and 10000, was [0]",
            "run " + UNREACHABLE + " | 1 | cannot connect to PostgreSQL at jdbc:postgresql://127.0.0.1:1/none",
            "run " + UNREACHABLE + " --pg-setting shared_buffers=1GB | 2 | --pg-setting applies to the embedded"
                    + " server only; set [shared_buffers] on the server at jdbc:postgresql://127.0.0.1:1/none instead"})
    void aBadArgumentEndsWithOneLineNamingIt(String args, int status, String expected) {
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args.split(" "), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(status, code, err::toString);
        String message = err.toString();
        assertEquals(1, message.lines().count(), "one line expected, got: " + message);
        assertTrue(message.startsWith("bench: "), message);
        assertTrue(message.contains(expected), "expected '" + expected + "' in: " + message);
    }
}
