package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.InvalidValueException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's headers as the {@code headers jsonb} column holds them: a flat JSON object of strings. Written
 * by the producers, read back by the claim; the column's own text output (as PostgreSQL prints jsonb) is
 * all this reads, so a value a user's SQL stored as another JSON type reads as its JSON text.
 */
final class TaskHeaders {

    private static final Logger LOG = LoggerFactory.getLogger(TaskHeaders.class);

    private TaskHeaders() {
    }

    /** {@code headers} checked: no null or empty name, no null value, only text PostgreSQL stores as given. */
    static Map<String, String> checked(String field, Map<String, String> headers) {
        if (headers == null) {
            throw new InvalidValueException(field, "must not be null (give an empty map for none)", null);
        }
        headers.forEach((name, value) -> {
            if (name == null || name.isEmpty() || Checks.unstorable(name) != null) {
                throw new InvalidValueException(field, "must have names that are not null or empty and that PostgreSQL"
                        + " stores as given (no NUL, no unpaired surrogate)", name);
            }
            if (value == null || Checks.unstorable(value) != null) {
                throw new InvalidValueException(field + "." + name, "must be a string that PostgreSQL stores as given"
                        + (value == null ? "" : ": it " + Checks.unstorable(value)), value);
            }
        });
        return headers;
    }

    /** The JSON object of {@code headers}; null for none, so that a task without headers stores NULL. */
    static String json(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        StringBuilder json = new StringBuilder(16 * headers.size() + 2).append('{');
        headers.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            quote(json, name).append(':');
            quote(json, value);
        });
        return json.append('}').toString();
    }

    private static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /**
     * The headers of task {@code taskId}'s column value; empty, with a warning, for a value that is not a JSON object
     * (written by SQL of the application's own: {@code 'null'::jsonb}, an array). Thrown, it failed the claim after
     * its commit: an at-most-once batch was lost unhandled, an at-least-once one leased again and again.
     */
    static Map<String, String> read(long taskId, String json) {
        try {
            return parse(json);
        } catch (IllegalArgumentException e) {
            LOG.warn("task {}: its headers are not a JSON object ({}); it is handed out without them: {}", taskId,
                    e.getMessage(), json);
            return Map.of();
        }
    }

    /** The headers of a column value; empty for NULL. */
    static Map<String, String> parse(String json) {
        if (json == null) {
            return Map.of();
        }
        return new Parser(json).object();
    }

    /** Reads one JSON object whose values are strings; other values are kept as their JSON text. */
    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        Map<String, String> object() {
            Map<String, String> headers = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                at++;
            } else {
                do {
                    String name = string();
                    expect(':');
                    headers.put(name, peek() == '"' ? string() : raw());
                } while (next(',', '}'));
            }
            if (skipSpace() < s.length()) {
                throw error("trailing text");
            }
            return Collections.unmodifiableMap(headers);
        }

        /** Whether {@code more} follows (then it is consumed), rather than {@code end}. */
        private boolean next(char more, char end) {
            char c = peek();
            at++;
            if (c == more) {
                return true;
            }
            if (c != end) {
                throw error("expected '" + more + "' or '" + end + "'");
            }
            return false;
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (at + 4 > s.length()) {
                            throw error("truncated \\u escape");
                        }
                        out.append((char) Integer.parseInt(s, at, at + 4, 16));
                        at += 4;
                    }
                    default -> throw error("unknown escape \\" + e);
                }
            }
        }

        /** A non-string value (number, literal, array, object) as its JSON text. */
        private String raw() {
            int start = skipSpace();
            int depth = 0;
            boolean inString = false;
            for (; at < s.length(); at++) {
                char c = s.charAt(at);
                if (inString) {
                    if (c == '\\') {
                        at++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (depth == 0) {
                        break;
                    }
                    depth--;
                } else if (c == ',' && depth == 0) {
                    break;
                }
            }
            String value = s.substring(start, at).strip();
            if (value.isEmpty()) {
                throw error("missing value");
            }
            return value;
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            at++;
        }

        private char peek() {
            return charAt(skipSpace());
        }

        private int skipSpace() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
                at++;
            }
            return at;
        }

        private char charAt(int i) {
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            return s.charAt(i);
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("headers are not a flat JSON object (" + what + " at " + at + "): " + s);
        }
    }
}
