package io.dbqueue.problems;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.res.StringManager;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's report of the errors it answers itself, before the application sees the request (a
 * malformed or oversized request line or header, a path with dot segments or bad escapes), and of error
 * statuses answered without a body: an RFC 9457 problem detail, as every other error answer of the
 * service, instead of Tomcat's HTML page or nothing.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final StringManager TOMCAT_MESSAGES = StringManager.getManager("org.apache.catalina.valves",
            Locale.ENGLISH);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // As Tomcat's own report: nothing for a success, after content, or for an error reported already. Unlike it,
        // an error status set without sendError and without a body (an actuator endpoint's bare 404) gets one too.
        if (status < 400 || response.getContentWritten() > 0 || response.isError() && !response.setErrorReported()) {
            return;
        }
        if (!response.isError() && response.getContentLength() >= 0) {
            return; // an empty body the application declared (Content-Length: 0) is its answer
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        String title = TOMCAT_MESSAGES.getString("http." + status + ".reason");
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("detail", detail(response, throwable, status));
        problem.put("status", status);
        problem.put("title", title == null ? "Error" : title);
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JsonMapper.shared().writeValueAsString(problem));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response committed meanwhile: nothing more can be sent.
        }
    }

    /** Tomcat's message when it gave one, else what such an error means here. */
    private static String detail(Response response, Throwable throwable, int status) {
        String message = response.getMessage();
        if (message != null && !message.isBlank()) {
            return message;
        }
        if (throwable != null && throwable.getMessage() != null) {
            return throwable.getMessage();
        }
        return status == 400
                ? "the request could not be read: its request line or a header is malformed or too large,"
                + " or its path is not allowed (dot segments, bad escapes)"
                : "the request could not be answered";
    }
}
