package io.dbqueue.problems;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page Tomcat forwards to for an error no handler answered (an exception that escaped, a
 * {@code sendError} outside Spring MVC): a problem detail instead of Spring Boot's plain JSON. A
 * server error says no more than its status, so that no internal message reaches the client.
 */
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value ? HttpStatus.resolve(value) : null;
        if (status == null) { // asked for directly, not forwarded with an error
            return Problems.answer(HttpStatus.NOT_FOUND, "no such resource: " + request.getRequestURI());
        }
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        String detail = status.is4xxClientError() && message instanceof String text && !text.isBlank()
                ? text : status.getReasonPhrase();
        return Problems.answer(status, detail);
    }
}
