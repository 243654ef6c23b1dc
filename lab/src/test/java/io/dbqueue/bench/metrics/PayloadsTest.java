package io.dbqueue.bench.metrics;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.DeflaterOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PayloadsTest {

    @Test
    void aPayloadHasTheMessageSizeAndCarriesItsStamp() {
        Payloads payloads = new Payloads(100);

        String payload = payloads.create(123_456_789_012L);

        assertEquals(100, payload.length());
        assertEquals(123_456_789_012L, Payloads.stamp(payload));
    }

    @Test
    void theBacklogsBodyHasTheMessageSizeAndNoStamp() {
        String literal = new Payloads(64).unmeasuredSql();
        String body = literal.substring(1, literal.length() - 1);

        assertEquals(64, body.length());
        assertEquals(0, Payloads.stamp(body));
    }

    @Test
    void aLargePayloadDoesNotCompress() throws IOException {
        String payload = new Payloads(16 * 1024).create(System.nanoTime());

        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(compressed)) {
            out.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        // 62 symbols carry under 6 bits a character: deflate can save a quarter at most, never the 97 % of a repeated one
        assertTrue(compressed.size() > payload.length() * 0.7, "compressed to " + compressed.size() + " bytes");
    }
}
