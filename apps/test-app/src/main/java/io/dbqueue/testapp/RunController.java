package io.dbqueue.testapp;

import io.dbqueue.problems.Problems;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;

import java.util.List;
import java.util.Map;

/** The experiment's HTTP surface: start a run, list runs, show one run; plus the statistics inbox. */
@RestController
public class RunController {

    static final long MAX_TEST_DATA_COUNT = 100_000_000;

    private final Runs runs;

    public RunController(Runs runs) {
        this.runs = runs;
    }

    @PostMapping("/")
    public Map<String, Long> start(@RequestParam long testDataCount, HttpServletRequest request) {
        int given = request.getParameterValues("testDataCount").length;
        if (given > 1) { // Spring would take the first and ignore the rest
            throw new IllegalArgumentException("testDataCount was given " + given + " times; give it once");
        }
        if (testDataCount < 1 || testDataCount > MAX_TEST_DATA_COUNT) {
            throw new IllegalArgumentException("testDataCount must be between 1 and " + MAX_TEST_DATA_COUNT
                    + ", was " + testDataCount);
        }
        return Map.of("id", runs.start(testDataCount));
    }

    @GetMapping("/")
    public List<RunView> list() {
        return runs.list();
    }

    @GetMapping("/{id}")
    public ResponseEntity<?> find(@PathVariable long id) {
        return runs.find(id).<ResponseEntity<?>>map(ResponseEntity::ok)
                .orElseGet(() -> Problems.answer(HttpStatus.NOT_FOUND, "no run " + id));
    }

    /** Statistics from consumers that report over HTTP: a JSON array of {@link Stat}. */
    @PostMapping("/stats")
    public ResponseEntity<Void> stats(@RequestBody List<Stat> stats) {
        runs.record(stats);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler(RunInProgressException.class)
    ResponseEntity<ProblemDetail> conflict(RunInProgressException e) {
        return Problems.answer(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler({IllegalArgumentException.class, MissingServletRequestParameterException.class,
            MethodArgumentTypeMismatchException.class})
    ResponseEntity<ProblemDetail> badRequest(Exception e) {
        return Problems.answer(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /**
     * A body that does not bind, named by the field where it failed ({@code [0].testId}), when Jackson knows it; a
     * body longer than {@code spring.jackson.factory.constraints.read.max-document-length}, 413. Jackson's other
     * limits (a number's length, a name's, the nesting) are a bad body: 400. The exception has no kind, only its
     * message, which for the document's length starts so.
     */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof StreamConstraintsException limit) {
                boolean tooLong = limit.getOriginalMessage().startsWith("Document length");
                return Problems.answer(tooLong ? HttpStatus.CONTENT_TOO_LARGE : HttpStatus.BAD_REQUEST,
                        limit.getOriginalMessage());
            }
            if (cause instanceof JacksonException json && !json.getPath().isEmpty()) {
                StringBuilder field = new StringBuilder();
                for (JacksonException.Reference step : json.getPath()) {
                    field.append(step.getPropertyName() != null ? (field.isEmpty() ? "" : ".") + step.getPropertyName()
                            : "[" + step.getIndex() + "]");
                }
                return Problems.answer(HttpStatus.BAD_REQUEST, "field '" + field + "': " + json.getOriginalMessage());
            }
        }
        return Problems.answer(HttpStatus.BAD_REQUEST, e.getMessage());
    }
}
