package io.dbqueue.testapp;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.http.converter.HttpMessageNotReadableException;

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
    public Map<String, Long> start(@RequestParam long testDataCount) {
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
                .orElseGet(() -> problem(HttpStatus.NOT_FOUND, "no run " + id));
    }

    /** Statistics from consumers that report over HTTP: a JSON array of {@link Stat}. */
    @PostMapping("/stats")
    public ResponseEntity<Void> stats(@RequestBody List<Stat> stats) {
        runs.record(stats);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler(RunInProgressException.class)
    ResponseEntity<ProblemDetail> conflict(RunInProgressException e) {
        return problem(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler({IllegalArgumentException.class, MissingServletRequestParameterException.class,
            MethodArgumentTypeMismatchException.class, HttpMessageNotReadableException.class})
    ResponseEntity<ProblemDetail> badRequest(Exception e) {
        return problem(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /** An RFC 9457 problem detail whose {@code detail} says precisely what was wrong. */
    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail) {
        return ResponseEntity.of(ProblemDetail.forStatusAndDetail(status, detail)).build();
    }
}
