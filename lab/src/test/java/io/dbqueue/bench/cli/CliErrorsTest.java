package io.dbqueue.bench.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every bad argument ends the command with one line naming what was wrong, and a non-zero status. */
class CliErrorsTest {

    private static final String UNREACHABLE = "--profile quick --jdbc-url jdbc:postgresql://127.0.0.1:1/none"
            + " --out target/never-written";

    /**
     * The corpus of bad arguments (src/test/resources/bad-cli-arguments.psv): arguments, status (2 a usage
     * error, 1 a failure to run) and a fragment of the one line. {@code UNREACHABLE} stands for a server
     * that cannot be reached.
     */
    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/bad-cli-arguments.psv", delimiter = '|', quoteCharacter = '"')
    void aBadArgumentEndsWithOneLineNamingIt(String args, int status, String expected) {
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args.replace("UNREACHABLE", UNREACHABLE).split(" "), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(status, code, err::toString);
        String message = err.toString();
        assertEquals(1, message.lines().count(), "one line expected, got: " + message);
        assertTrue(message.startsWith("bench: "), message);
        assertTrue(message.contains(expected), "expected '" + expected + "' in: " + message);
    }
}
