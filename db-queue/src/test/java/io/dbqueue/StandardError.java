package io.dbqueue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what is written to {@link System#err} while open, and still passes it on: slf4j-simple, the tests' logging
 * binding, writes its lines there.
 */
public final class StandardError implements AutoCloseable {

    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private StandardError() {
        PrintStream copy = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setErr(new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                copy.write(b);
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                copy.write(bytes, offset, length);
                original.write(bytes, offset, length);
            }
        }, true, StandardCharsets.UTF_8));
    }

    public static StandardError capture() {
        return new StandardError();
    }

    /** The lines written so far. */
    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
