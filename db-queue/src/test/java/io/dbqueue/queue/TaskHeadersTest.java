package io.dbqueue.queue;

import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TaskHeadersTest {

    @Test
    void noHeadersAreNull() {
        assertNull(TaskHeaders.json(Map.of()));
        assertEquals(Map.of(), TaskHeaders.parse(null));
        assertEquals(Map.of(), TaskHeaders.parse("{}"));
    }

    @Test
    void headersRoundTripWithEveryCharacterThatNeedsEscaping() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        headers.put("quote\"and\\back", "new\nline\ttab\rreturn\u0001ctl");
        headers.put("ünïcödé", "日本 😀");
        String json = TaskHeaders.json(headers);
        assertEquals("{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\","
                + "\"quote\\\"and\\\\back\":\"new\\nline\\ttab\\rreturn\\u0001ctl\",\"ünïcödé\":\"日本 😀\"}", json);
        assertEquals(headers, TaskHeaders.parse(json));
    }

    /** As PostgreSQL prints jsonb: spaces after ':' and ',', keys sorted, \\u escapes and other types from users' SQL. */
    @Test
    void readsJsonbTextOutputAndKeepsOtherValuesAsTheirJson() {
        assertEquals(Map.of("a", "x/y", "b", "\u00e9", "n", "12.5", "t", "true", "z", "null",
                        "o", "{\"k\": [1, \"}\"]}", "l", "[1, 2]"),
                TaskHeaders.parse(" { \"a\" : \"x\\/y\", \"b\": \"\\u00e9\", \"l\": [1, 2], \"n\": 12.5,"
                        + " \"o\": {\"k\": [1, \"}\"]}, \"t\": true, \"z\": null } "));
    }

    @Test
    void rejectsWhatIsNotAFlatObject() {
        for (String bad : new String[] {"[]", "{\"a\"}", "{\"a\": \"b\"", "{\"a\": \"b\"} x", "{\"a\": }",
                "{\"a\": \"\\q\"}", "{\"a\": \"\\u12\"}", "\"a\""}) {
            assertThrows(IllegalArgumentException.class, () -> TaskHeaders.parse(bad), bad);
        }
    }

    @Test
    void checkNamesTheFieldAndTheRule() {
        Map<String, String> nullValue = new LinkedHashMap<>();
        nullValue.put("a", null);
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> TaskHeaders.checked("headers", nullValue));
        assertEquals("headers.a", e.field());
        assertEquals("headers", assertThrows(InvalidValueException.class,
                () -> TaskHeaders.checked("headers", Map.of("", "v"))).field());
        assertThrows(InvalidValueException.class, () -> TaskHeaders.checked("headers", Map.of("a", "nul\0")));
        assertThrows(InvalidValueException.class, () -> TaskHeaders.checked("headers", null));
    }
}
