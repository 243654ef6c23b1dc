package io.dbqueue.common;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChecksTest {

    @Test
    void textThatPostgreSqlStoresAsGivenPasses() {
        assertNull(Checks.unstorable(""));
        assertNull(Checks.unstorable("plain, ümlaut, 中文"));
        assertNull(Checks.unstorable("a pair: \uD83D\uDE00 (an emoji) and another at the end \uD83D\uDE00"));
    }

    @Test
    void aNulOrHalfAPairIsNamedWithItsIndex() {
        assertEquals("contains a NUL character (U+0000) at index 1, which PostgreSQL text cannot store",
                Checks.unstorable("a\0b"));
        assertEquals("contains an unpaired UTF-16 surrogate (U+D800) at index 1, which is no character and would be"
                + " stored as '?'", Checks.unstorable("x\uD800y"));
        assertEquals("contains an unpaired UTF-16 surrogate (U+DFFF) at index 0, which is no character and would be"
                + " stored as '?'", Checks.unstorable("\uDFFFy"));
        assertEquals("contains an unpaired UTF-16 surrogate (U+D83D) at index 3, which is no character and would be"
                + " stored as '?'", Checks.unstorable("end\uD83D"), "a high surrogate last");
        assertEquals("contains an unpaired UTF-16 surrogate (U+DE00) at index 2, which is no character and would be"
                + " stored as '?'", Checks.unstorable("\uD83D\uDE00\uDE00"), "a low surrogate after a whole pair");
    }

    @Test
    void durationsStopAtAHundredYears() {
        Checks.positive("d", Checks.LONGEST);
        Checks.notNegative("d", Duration.ZERO);
        assertEquals("d must be at most 100 years (36525 days), was PT876600H1S", assertThrows(InvalidValueException.class,
                () -> Checks.positive("d", Checks.LONGEST.plusSeconds(1))).getMessage());
        assertEquals("d", assertThrows(InvalidValueException.class,
                () -> Checks.notNegative("d", Duration.ofSeconds(Long.MAX_VALUE))).field());
    }
}
