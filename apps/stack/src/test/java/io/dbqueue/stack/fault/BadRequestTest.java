package io.dbqueue.stack.fault;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bad-input corpus: its format, its generated bodies, and the corpora shipped with the stack. */
class BadRequestTest {

    @Test
    void linesAreParsedAndBodiesGenerated() {
        List<BadRequest> corpus = BadRequest.parse(List.of("# comment", "",
                "POST\t/\tapplication/json\t{\"testId\": $RUN}\t400\tmissing",
                "GET\t/x\t-\t@empty\t4xx\t*",
                "POST\t/batch\tapplication/json\t[{\"m\":\"a\",\"testId\":$RUN},{\"m\":\"b\",\"testId\":$RUN}]\t200\t-",
                "POST\t/\t-\t@hex:ff 00\t400\t-",
                "POST\t/\t-\t@nest:3\t400\t-",
                "POST\t/\t-\t@repeat:4:ab\t400\t-"));
        assertEquals(6, corpus.size());
        assertEquals(3, corpus.get(0).line());
        assertEquals("{\"testId\": 7}", new String(corpus.get(0).bytes(7), StandardCharsets.UTF_8));
        assertTrue(corpus.get(1).accepts(404) && corpus.get(1).accepts(400) && !corpus.get(1).accepts(500));
        assertFalse(corpus.get(0).accepts(415));
        assertTrue(corpus.get(2).valid());
        assertEquals(2, corpus.get(2).messages());
        assertEquals(1, corpus.get(0).messages());
        assertArrayEquals(new byte[]{(byte) 0xff, 0}, corpus.get(3).bytes(1));
        assertEquals("[[[]]]", new String(corpus.get(4).bytes(1), StandardCharsets.UTF_8));
        assertEquals("abababab", new String(corpus.get(5).bytes(1), StandardCharsets.UTF_8));
        assertEquals(0, corpus.get(1).bytes(1).length);
    }

    @Test
    void malformedLinesAreNamed() {
        IllegalArgumentException fields = assertThrows(IllegalArgumentException.class,
                () -> BadRequest.parse(List.of("POST\t/\t-\t{}\t400")));
        assertEquals("line 1: 6 tab-separated fields expected (method, path, Content-Type, body, status, error), found 5",
                fields.getMessage());
        IllegalArgumentException status = assertThrows(IllegalArgumentException.class,
                () -> BadRequest.parse(List.of("#", "POST\t/\t-\t{}\tfour\t-")));
        assertEquals("line 2: status must be a code or 4xx, was 'four'", status.getMessage());
    }

    @Test
    void theShippedCorporaParse() {
        List<BadRequest> producer = BadInputRun.corpus("producer-app");
        List<BadRequest> testApp = BadInputRun.corpus("test-app");
        assertTrue(producer.size() >= 30 && testApp.size() >= 15, producer.size() + " and " + testApp.size());
        assertTrue(producer.stream().anyMatch(BadRequest::valid), "hostile but valid requests are in the corpus");
        assertTrue(testApp.stream().noneMatch(BadRequest::valid), "no request of the corpus starts a test-app run");
    }
}
