package io.dbqueue.stack.fault;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One request of the bad-input corpus ({@code bad-input/<service>.tsv}) and what the service must
 * answer: the status (a code, or any 4xx), and a fragment of the JSON body's {@code error}
 * ({@link #ANY_ERROR}: any error; {@link #ANY_BODY}: any body, for refusals by the HTTP server itself).
 */
record BadRequest(int line, String method, String path, String contentType, String body, String status,
                  String error) {

    static final String ANY_ERROR = "-";
    static final String ANY_BODY = "*";
    static final String RUN = "$RUN";

    /** Parses a corpus: tab-separated fields, {@code #} comments and blank lines skipped. */
    static List<BadRequest> parse(List<String> lines) {
        List<BadRequest> requests = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.isBlank() || text.startsWith("#")) {
                continue;
            }
            String[] f = text.split("\t", -1);
            if (f.length != 6) {
                throw new IllegalArgumentException("line " + (i + 1) + ": 6 tab-separated fields expected"
                        + " (method, path, Content-Type, body, status, error), found " + f.length);
            }
            if (!f[4].matches("[1-5][0-9][0-9]|4xx")) {
                throw new IllegalArgumentException("line " + (i + 1) + ": status must be a code or 4xx, was '" + f[4] + "'");
            }
            requests.add(new BadRequest(i + 1, f[0], f[1], f[2], f[3], f[4], f[5]));
        }
        return requests;
    }

    /** Whether the service must store this request's messages (a hostile-looking but valid request). */
    boolean valid() {
        return status.startsWith("2");
    }

    boolean accepts(int code) {
        return status.equals("4xx") ? code / 100 == 4 : Integer.toString(code).equals(status);
    }

    /** The body's bytes, generated where it says so, with {@code runId} in place of {@code $RUN}. */
    byte[] bytes(long runId) {
        if (body.equals("@empty")) {
            return new byte[0];
        }
        if (body.startsWith("@repeat:")) {
            String[] parts = body.split(":", 3);
            return parts[2].repeat(Integer.parseInt(parts[1])).getBytes(StandardCharsets.UTF_8);
        }
        if (body.startsWith("@nest:")) {
            int depth = Integer.parseInt(body.substring("@nest:".length()));
            return ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.UTF_8);
        }
        if (body.startsWith("@hex:")) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(HexFormat.of().parseHex(body.substring("@hex:".length()).replace(" ", "")));
            return bytes.toByteArray();
        }
        return body.replace(RUN, Long.toString(runId)).getBytes(StandardCharsets.UTF_8);
    }

    /** How many messages a valid request carries: one for {@code POST /}, the array's length for {@code /batch}. */
    int messages() {
        return path.equals("/batch") ? body.split("\"testId\"", -1).length - 1 : 1;
    }

    String describe() {
        String shown = body.length() > 60 ? body.substring(0, 60) + "..." : body;
        return "line " + line + " (" + method + " " + path + " " + shown + ")";
    }
}
