package io.dbqueue.problems;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** The services' error answers. */
public final class Problems {

    private Problems() {
    }

    /**
     * An RFC 9457 problem detail whose {@code detail} says precisely what was wrong. Its content type is set, not
     * negotiated: a mapping that produces only application/json would otherwise have it chosen.
     */
    public static ResponseEntity<ProblemDetail> answer(HttpStatus status, String detail) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemDetail.forStatusAndDetail(status, detail));
    }
}
